#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

class partial_builder;
struct scanned_number;

/** A JSON tokenizer fed a document in pieces split anywhere: each byte is looked
    at once, so reading n bytes costs O(n) however they are cut. Tokens cut by a
    split (an escape, a UTF-8 sequence, a number, a literal) are held until they
    are whole; a string value's text is appended to its destination in the partial
    as it arrives.
*/
class incremental_tokenizer {
public:
    /// Tokens go to `sink` (see partial_builder for what each call means). Containers nested
    /// deeper than `max_depth` and strings longer than `max_string_length` bytes stop reading.
    incremental_tokenizer(partial_builder& sink, std::size_t max_depth, std::size_t max_string_length);
    incremental_tokenizer(const incremental_tokenizer&) = delete; // out_ may point to text_
    incremental_tokenizer& operator=(const incremental_tokenizer&) = delete;

    /// Reads the next piece, which must be followed by at least 15 readable bytes (it is
    /// the end of a padded_text); false on invalid JSON or when the sink stopped.
    bool feed(std::string_view piece);
    /// The input ended: false unless it was one whole JSON value.
    bool finish();

    /// One whole JSON value has been read (only whitespace may follow).
    bool complete() const noexcept { return state_ == state::done; }
    /// Reading stopped: invalid JSON, or the sink said stop.
    bool failed() const noexcept { return state_ == state::failed; }
    /// Why it stopped (empty when the sink stopped it).
    const std::string& error() const noexcept { return error_; }
    /// Where the string that stopped reading for its length starts (it may not have ended
    /// yet), or npos when none did.
    std::size_t long_string_offset() const noexcept { return long_string_at_; }

private:
    enum class state : std::uint8_t {
        value,
        first_member_or_close,
        member,
        colon,
        after_value,
        string, // in a string value's text
        name,   // in a member name's
        number,
        literal,
        done,
        failed
    };
    enum class in_string : std::uint8_t {
        text, escape, hex, low_backslash, low_u, low_hex, utf8
    };

    bool fail(const char* what);
    /// feed() of a piece that is plain text inside a string value.
    [[gnu::noinline]] bool append_value_text(std::string_view piece);
    /// feed() of any other piece: the token loop.
    [[gnu::noinline]] bool read_tokens(std::string_view piece);
    // Inlined into read_tokens(), their only caller (defined in the .cpp): a call per token costs
    // about as much as the token, and GCC does not inline them by itself.
    /// A value that is not a string begins with `c`.
    [[gnu::always_inline]] inline bool begin_value(char c);
    inline bool value_done();
    [[gnu::always_inline]] inline bool read_string(const char*& p, const char* end, bool& closed);
    [[gnu::always_inline]] inline bool read_string_value(const char*& p, const char* end,
                                                         const char* piece);
    /// A string's text begins, in state `in` (string or name): it goes to `out`, or to text_
    /// when null (a name, or a value not kept).
    [[gnu::always_inline]] inline void begin_string_text(std::string* out, state in);
    [[gnu::always_inline]] inline bool go_on_in_string(const char*& p, const char* stop,
                                                       const char* end);
    [[gnu::always_inline]] inline bool end_string(std::size_t end);
    [[gnu::always_inline]] inline bool read_number(const char*& p, const char* end);
    [[gnu::always_inline]] inline bool end_key();
    /// A whole member name, unescaped: to the sink, then the ':' is expected.
    [[gnu::always_inline]] inline bool key_done(std::string_view name);
    inline void hold_run();
    bool string_within_limit(std::size_t length) {
        if (length <= max_string_length_) return true;
        long_string_at_ = token_begin_;
        return fail("string too long");
    }
    bool end_number(std::string_view text);
    bool number_done(const scanned_number& number);

    partial_builder& sink_;
    std::size_t max_depth_;
    std::size_t max_string_length_;
    std::size_t offset_ = 0; // of the piece being read
    state state_ = state::value;
    std::vector<char> stack_; // '{' or '[' per open container
    std::string error_;
    std::size_t long_string_at_ = std::string::npos;

    // The token in progress.
    std::size_t token_begin_ = 0;
    bool just_opened_ = false; // the last token was '[': ']' may close it empty
    in_string string_state_ = in_string::text;
    std::string text_;          // a key cut or unescaped, a cut number, or string text not kept
    std::string* out_ = &text_; // where string text goes: text_, or a value's partial string
    std::string_view run_;      // string text not yet in *out_, a view of the piece being read
    std::uint32_t code_ = 0;    // \u escape or UTF-8 sequence being read
    std::uint32_t high_ = 0;    // a high surrogate waiting for its low half
    int digits_ = 0;            // hex digits, or UTF-8 continuation bytes, still to come
    unsigned char utf8_[4]{};   // the UTF-8 sequence being read
    int utf8_size_ = 0;
    std::string_view literal_{};
    std::size_t literal_matched_ = 0;
};

} // namespace forma::json_detail
