#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
        const std::size_t n = piece.size();
        if (capacity_ - size_ < n + padding) grow(n);
        char* const at = bytes_.get() + size_;
        copy(at, piece.data(), n);
        size_ += n;
        std::memset(at + n, 0, padding); // a fixed size: a store, not a call
        return {at, n};
    }

    std::size_t size() const noexcept { return size_; }
    std::string_view view() const noexcept { return {bytes_.get(), size_}; }

private:
    // A streamed answer comes in short pieces (a token or a few): up to 16 bytes are copied
    // without a call to memcpy, 16 as one store, which the tokenizer's first 16-byte load of
    // them can take straight from the store buffer; fewer as loads and stores that may overlap.
    static void copy(char* to, const char* from, std::size_t n) noexcept {
        if (n == 16)
            std::memcpy(to, from, 16);
        else if (n > 16)
            std::memcpy(to, from, n);
        else if (n >= 8)
            copy_ends<std::uint64_t>(to, from, n);
        else if (n >= 4)
            copy_ends<std::uint32_t>(to, from, n);
        else if (n != 0) // 1 to 3 bytes: the first, the middle and the last
            to[0] = from[0], to[n / 2] = from[n / 2], to[n - 1] = from[n - 1];
    }

    /// Copies n bytes (sizeof(Word) to 2 * sizeof(Word)) as a word from each end.
    template <class Word>
    static void copy_ends(char* to, const char* from, std::size_t n) noexcept {
        Word head, tail;
        std::memcpy(&head, from, sizeof head);
        std::memcpy(&tail, from + n - sizeof tail, sizeof tail);
        std::memcpy(to, &head, sizeof head);
        std::memcpy(to + n - sizeof tail, &tail, sizeof tail);
    }

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
