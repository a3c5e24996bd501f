#pragma once
// Room in the reader's frame for the first elements of an array read into an empty vector.

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace forma::json_detail {

/// Room for a short array's elements taken at once (most arrays are short): as many as 512
/// bytes hold, at most 8 (0 when none fits).
template <class E>
inline constexpr std::size_t short_array_room = std::min<std::size_t>(8, 512 / sizeof(E));

/** How many elements of E an empty vector's array stages before the vector allocates:
    short_array_room; 0 when fewer than 2 fit (no staging) or E is bool (a vector<bool> has no
    element to read into). The bytes are on the stack once for each level of nested arrays,
    which a recursive type's input bounds by parse_options::max_depth.
*/
template <class E>
inline constexpr std::size_t staged_elements =
    std::is_same_v<E, bool> || short_array_room<E> < 2 ? 0 : short_array_room<E>;

/** The first N elements of an array, read in place here, then moved into the vector at once.
    An array of up to 2N elements then costs the vector one allocation (of N, or of 2N when it
    goes on past N) where growing it an element at a time allocates for 1, 2, 4... and moves the
    elements read so far each time. Only for a vector with no capacity: one that has some is read
    into directly, with no allocation while it fits.
*/
template <class E, std::size_t N>
class element_stage {
public:
    element_stage() noexcept {}
    element_stage(const element_stage&) = delete;
    element_stage& operator=(const element_stage&) = delete;
    ~element_stage() { destroy(); }

    std::size_t size() const noexcept { return size_; }
    E& emplace_back() {
        E* const element = ::new (static_cast<void*>(storage_ + size_ * sizeof(E))) E();
        ++size_;
        return *element;
    }
    /// Moves the staged elements to the end of `out`, reserving room for `room` elements.
    template <class V>
    void move_into(V& out, std::size_t room) {
        out.reserve(room);
        for (std::size_t i = 0; i < size_; ++i) out.push_back(std::move(at(i)));
        destroy();
    }

private:
    E& at(std::size_t i) noexcept { return *std::launder(reinterpret_cast<E*>(storage_ + i * sizeof(E))); }
    void destroy() noexcept {
        for (std::size_t i = 0; i < size_; ++i) at(i).~E();
        size_ = 0;
    }

    alignas(E) unsigned char storage_[N * sizeof(E)];
    std::size_t size_ = 0;
};

} // namespace forma::json_detail
