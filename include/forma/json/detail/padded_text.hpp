#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

namespace forma::json_detail {

/// Text that grows at its end and is always followed by `padding` zero bytes, so a scan
/// may load 16 bytes at any position before the end (find_string_special_padded).
class padded_text {
public:
    static constexpr std::size_t padding = 16;

    /// Appends `piece`; returns its copy here, which the padding follows.
    std::string_view append(std::string_view piece) {
        if (capacity_ - size_ < piece.size() + padding) grow(piece.size());
        char* const at = bytes_.get() + size_;
        if (!piece.empty()) std::memcpy(at, piece.data(), piece.size());
        size_ += piece.size();
        std::memset(at + piece.size(), 0, padding); // a fixed size: a store, not a call
        return {at, piece.size()};
    }

    std::size_t size() const noexcept { return size_; }
    std::string_view view() const noexcept { return {bytes_.get(), size_}; }

private:
    // Doubles, as a vector would, but without zeroing the new bytes (a stream appends many
    // short pieces), and by realloc: a block is extended in place where it can be, and a
    // large one is moved by remapping its pages, not by copying them.
    void grow(std::size_t more) {
        const std::size_t capacity =
            std::max({capacity_ * 2, size_ + more + padding, std::size_t{256}});
        void* const bytes = std::realloc(bytes_.get(), capacity);
        if (!bytes) throw std::bad_alloc();
        (void)bytes_.release();
        bytes_.reset(static_cast<char*>(bytes));
        capacity_ = capacity;
    }

    struct free_bytes {
        void operator()(char* bytes) const noexcept { std::free(bytes); }
    };
    std::unique_ptr<char, free_bytes> bytes_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

} // namespace forma::json_detail
