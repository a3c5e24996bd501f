#pragma once
// Random identifiers in lowercase hex (agents' and sessions' ids, MCP session ids), for the code
// in lib/: the one place they are made.

#include "random_bytes.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace forma::text_detail {

/// Eight values 0..15, one per byte, as lowercase hex digits in the same bytes: + '0', and
/// 'a' - '0' - 10 more where the value is 10 or more (bit 4 of value + 6).
constexpr std::uint64_t hex_digit_bytes(std::uint64_t nibbles) noexcept {
    const std::uint64_t letters = ((nibbles + 0x0606060606060606u) >> 4) & 0x0101010101010101u;
    return nibbles + 0x3030303030303030u + letters * ('a' - '0' - 10);
}

/// The digits of a random id: 32 random lowercase hex digits (128 bits from the kernel's
/// cryptographic generator, random_bytes) written at `out`.
inline void write_random_hex(char* out) {
    unsigned char drawn[16];
    random_bytes(drawn, sizeof drawn);
    for (int half = 0; half < 2; ++half, out += 16) {
        std::uint64_t bits;
        std::memcpy(&bits, drawn + 8 * half, 8);
        const std::uint64_t low = hex_digit_bytes(bits & 0x0F0F0F0F0F0F0F0Fu);
        const std::uint64_t high = hex_digit_bytes((bits >> 4) & 0x0F0F0F0F0F0F0F0Fu);
        std::memcpy(out, &low, 8);
        std::memcpy(out + 8, &high, 8);
    }
}

/// `prefix`, then 32 random lowercase hex digits (write_random_hex).
inline std::string random_hex_id(std::string_view prefix = {}) {
    std::string id(prefix.size() + 32, '0');
    prefix.copy(id.data(), prefix.size());
    write_random_hex(id.data() + prefix.size());
    return id;
}

} // namespace forma::text_detail
