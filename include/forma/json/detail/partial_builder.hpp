#pragma once

#include <forma/json/detail/incremental_tokenizer.hpp>
#include <forma/json/detail/partial_slot.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/** Routes the tokens of an incremental_tokenizer into a partial tree through its
    slots. Stops (returns false) on a value of the wrong kind: the caller then asks
    from_json for the exact error. `document` is the text read so far, for the
    values kept whole (variants, maps, std::array), read when they end.
*/
class partial_builder final : public token_sink {
public:
    partial_builder(slot root, const std::string& document, bool wrapped) noexcept
        : root_(root), document_(document), wrapped_(wrapped) {}

    bool open(char bracket, std::size_t begin) override;
    bool close(char bracket, std::size_t end) override;
    bool key(std::string_view name) override;
    bool string_part(std::string_view text, bool first, bool last, std::size_t begin, std::size_t end) override;
    bool number(std::string_view text, std::size_t begin, std::size_t end) override;
    bool literal(char literal, std::size_t begin, std::size_t end) override;

private:
    enum class mode : std::uint8_t { fill, skip, whole, wrapper };
    struct frame {
        slot target;
        mode how;
        std::size_t depth = 1;  // skip and whole: brackets open inside
        std::size_t begin = 0;  // whole: where the value began
    };

    /// Whether the tokens are inside a value being skipped or kept whole.
    bool passing_through() const noexcept;
    /// The slot the value starting now goes to, through nullables; empty: skip it, or a
    /// nullable took the null.
    slot target_of_new_value(bool null);

    slot root_;
    const std::string& document_;
    bool wrapped_;
    bool root_taken_ = false;
    std::vector<frame> frames_;
    slot pending_;            // the member whose value comes next
    slot string_target_;      // the string value being read
    mode string_mode_ = mode::fill;
    std::string enum_name_;   // an enumeration's name across parts
};

} // namespace forma::json_detail
