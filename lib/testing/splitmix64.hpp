#pragma once
// The random draws of make_instance: one seed gives one instance, on every platform.

#include <cstdint>

namespace forma::testing::detail {

/// The next draw of the sequence `state` holds (splitmix64: neighbouring seeds give unrelated draws).
inline std::uint64_t splitmix64(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

} // namespace forma::testing::detail
