#pragma once
// Cutting a byte stream into reads, to check that incremental parsers give the same
// result wherever a read ends.

#include <cstddef>
#include <random>
#include <string_view>
#include <vector>

namespace forma_test {

/// The stream cut at the given offsets (sorted, each within the stream).
inline std::vector<std::string_view> cut(std::string_view stream, const std::vector<std::size_t>& at) {
    std::vector<std::string_view> out;
    std::size_t begin = 0;
    for (std::size_t end : at) {
        out.push_back(stream.substr(begin, end - begin));
        begin = end;
    }
    out.push_back(stream.substr(begin));
    return out;
}

/// Random cut points for a stream of `size` bytes, reads of 1 to a random maximum below `largest_read`.
template <class Engine>
std::vector<std::size_t> random_cuts(std::size_t size, std::size_t largest_read, Engine& rng) {
    std::vector<std::size_t> at;
    const std::size_t max_chunk = 1 + rng() % largest_read;
    for (std::size_t i = 1 + rng() % max_chunk; i < size; i += 1 + rng() % max_chunk) at.push_back(i);
    return at;
}

} // namespace forma_test
