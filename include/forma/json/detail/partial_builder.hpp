#pragma once

#include <forma/json/detail/padded_text.hpp>
#include <forma/json/detail/partial_slot.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/** Routes the tokens of an incremental_tokenizer into a partial tree through its
    slots. Stops (returns false) on a value of the wrong kind or a member given twice:
    the caller then asks from_json for the exact error. `document` is the text read so far, for the
    values kept whole (variants, maps, std::array), read when they end.
*/
class partial_builder {
public:
    partial_builder(slot root, const padded_text& document, bool wrapped) noexcept
        : root_(root), document_(document), wrapped_(wrapped) {}

    // The tokens. Offsets count bytes from the start of the document; `end` is one past
    // the token. Returning false stops the tokenizer.

    /// '{' or '[' at `begin`.
    bool open(char bracket, std::size_t begin);
    /// '}' or ']' ending at `end`.
    bool close(char bracket, std::size_t end);
    /// A member name, whole and unescaped.
    bool key(std::string_view name);
    /// A string value's opening quote at `begin`. `text` becomes where its unescaped text
    /// goes as it arrives, never cutting a UTF-8 sequence (the partial's own string, so a
    /// piece is copied once), or null when the text is not kept.
    bool begin_string(std::size_t begin, std::string*& text);
    /// The string value's closing quote, ending at `end`.
    bool end_string(std::size_t end);
    /// A whole number, scanned by the JSON grammar, from `begin` to `end`.
    bool number(const scanned_number& number, std::size_t begin, std::size_t end);
    /// true, false or null: `literal` is 't', 'f' or 'n'.
    bool literal(char literal, std::size_t begin, std::size_t end);

    /// A member the partial does not have was skipped: whether from_json accepts the
    /// document then depends on its options and on the skipped text.
    bool skipped_members() const noexcept { return skipped_members_; }

private:
    enum class mode : std::uint8_t { fill, skip, whole, wrapper };
    struct frame {
        slot target;
        mode how;
        std::size_t depth = 1;  // skip and whole: brackets open inside
        std::size_t begin = 0;  // whole: where the value began
        std::size_t next_member = 0; // fill of an object: the member likely to come next
        std::uint64_t seen = 0;      // fill of an object: the members given (the first 64)
    };

    /// Whether the tokens are inside a value being skipped or kept whole.
    bool passing_through() const noexcept {
        return !frames_.empty() && (frames_.back().how == mode::skip || frames_.back().how == mode::whole);
    }
    /// The slot the value starting now goes to, through nullables; empty: skip it (not a member
    /// of the partial, or inside a value skipped or kept whole), or a nullable took the null.
    inline slot target_of_new_value(bool null);

    slot root_;
    const padded_text& document_;
    bool wrapped_;
    bool root_taken_ = false;
    bool skipped_members_ = false;
    std::vector<frame> frames_;
    slot pending_;            // the member whose value comes next
    slot string_target_;      // the string value being read
    mode string_mode_ = mode::fill;
    std::size_t string_begin_ = 0;
    std::string enum_name_; // an enumeration's name across pieces
};

} // namespace forma::json_detail
