#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/// What an incremental_tokenizer reports. Offsets count bytes from the start of the
/// document; `end` is one past the token. Returning false stops the tokenizer.
class token_sink {
public:
    virtual ~token_sink() = default;
    /// '{' or '[' at `begin`.
    virtual bool open(char bracket, std::size_t begin) = 0;
    /// '}' or ']' ending at `end`.
    virtual bool close(char bracket, std::size_t end) = 0;
    /// A member name, whole and unescaped.
    virtual bool key(std::string_view name) = 0;
    /// Part of a string value, unescaped, never cutting a UTF-8 sequence. The first part
    /// says where the string began; the last where it ended. "" is one part, first and last.
    virtual bool string_part(std::string_view text, bool first, bool last, std::size_t begin,
                             std::size_t end) = 0;
    /// A whole number, checked against the JSON grammar.
    virtual bool number(std::string_view text, std::size_t begin, std::size_t end) = 0;
    /// true, false or null: `literal` is 't', 'f' or 'n'.
    virtual bool literal(char literal, std::size_t begin, std::size_t end) = 0;
};

/** A JSON tokenizer fed a document in pieces split anywhere: each byte is looked
    at once, so reading n bytes costs O(n) however they are cut. Tokens cut by a
    split (an escape, a UTF-8 sequence, a number, a literal) are held until they
    are whole; plain string text is passed on as it arrives.
*/
class incremental_tokenizer {
public:
    incremental_tokenizer(token_sink& sink, std::size_t max_depth);

    /// Reads the next piece; false on invalid JSON or when the sink stopped.
    bool feed(std::string_view piece);
    /// The input ended: false unless it was one whole JSON value.
    bool finish();

    /// Reading stopped: invalid JSON, or the sink said stop.
    bool failed() const noexcept { return state_ == state::failed; }
    /// Why it stopped (empty when the sink stopped it).
    const std::string& error() const noexcept { return error_; }

private:
    enum class state : std::uint8_t {
        value, first_member_or_close, member, colon, after_value, string, number, literal, done, failed
    };
    enum class in_string : std::uint8_t {
        text, escape, hex, low_backslash, low_u, low_hex, utf8
    };

    bool fail(const char* what);
    bool begin_value(char c);
    bool value_done();
    bool read_string(const char*& p, const char* end, bool& closed);
    bool flush_string(bool last);
    bool end_number();

    token_sink& sink_;
    std::size_t max_depth_;
    std::size_t offset_ = 0; // of the piece being read
    state state_ = state::value;
    std::vector<char> stack_; // '{' or '[' per open container
    std::string error_;

    // The token in progress.
    std::size_t token_begin_ = 0;
    bool string_is_key_ = false;
    bool string_first_ = true;
    std::size_t string_end_ = 0;
    bool just_opened_ = false; // the last token was '[': ']' may close it empty
    in_string string_state_ = in_string::text;
    std::string text_;          // unescaped string text not yet passed on, or the number
    std::uint32_t code_ = 0;    // \u escape or UTF-8 sequence being read
    std::uint32_t high_ = 0;    // a high surrogate waiting for its low half
    int digits_ = 0;            // hex digits, or UTF-8 continuation bytes, still to come
    unsigned char utf8_[4]{};   // the UTF-8 sequence being read
    int utf8_size_ = 0;
    std::string_view literal_{};
    std::size_t literal_matched_ = 0;
};

/// Whether `text` is a number by JSON's grammar.
bool is_json_number(std::string_view text) noexcept;

} // namespace forma::json_detail
