#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/// Text that grows at its end and is always followed by `padding` zero bytes, so a scan
/// may load 16 bytes at any position before the end (find_string_special_padded).
class padded_text {
public:
    static constexpr std::size_t padding = 16;

    void append(std::string_view piece) {
        const std::size_t at = size();
        bytes_.resize(at + piece.size() + padding); // new bytes are zero: the padding stays zero
        if (!piece.empty()) std::memcpy(bytes_.data() + at, piece.data(), piece.size());
    }

    std::size_t size() const noexcept { return bytes_.empty() ? 0 : bytes_.size() - padding; }
    std::string_view view() const noexcept { return {bytes_.data(), size()}; }

private:
    std::vector<char> bytes_;
};

} // namespace forma::json_detail
