// The shortest decimal text that reads back as a double or float, spelled as std::to_chars
// spells it: the digits from Dragonbox (Debian's libfmt-dev, header-only here, so users of
// forma::json do not link fmt), the layout chosen here.
#include <forma/json/detail/writer.hpp>

#define FMT_HEADER_ONLY
#define FMT_USE_FULL_CACHE_DRAGONBOX 1 // 10 KB of powers of ten: 44 instructions a double fewer
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace forma::json_detail {

namespace {

__extension__ typedef unsigned __int128 whole_number; // GCC's and Clang's; no pedantic warning

constexpr char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                               "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                               "8081828384858687888990919293949596979899";

void two_digits(char* at, std::uint32_t n) noexcept { std::memcpy(at, digit_pairs + n * 2, 2); }

// The 8 digits of `n` (below 1e8), leading zeros included, ending at `end`: 32-bit steps.
void eight_digits(char* end, std::uint32_t n) noexcept {
    const std::uint32_t high = n / 10000;
    const std::uint32_t low = n % 10000;
    two_digits(end - 8, high / 100);
    two_digits(end - 6, high % 100);
    two_digits(end - 4, low / 100);
    two_digits(end - 2, low % 100);
}

// The decimal digits of `n`, written backwards to end at `end`; returns their first.
char* digits_before(char* end, std::uint64_t n) noexcept {
    for (; n >= 100'000'000; n /= 100'000'000, end -= 8) eight_digits(end, static_cast<std::uint32_t>(n % 100'000'000));
    auto rest = static_cast<std::uint32_t>(n);
    for (; rest >= 100; rest /= 100, end -= 2) two_digits(end - 2, rest % 100);
    if (rest >= 10) {
        end -= 2;
        two_digits(end, rest);
    } else {
        *--end = static_cast<char>('0' + rest);
    }
    return end;
}

// Copies `n` (at most 20) bytes: 20 always, a few moves instead of a call to memcpy. The source
// has 20 readable bytes; the destination has room (see lay_out).
char* copy(char* out, const char* from, int n) noexcept {
    std::memcpy(out, from, 20);
    return out + n;
}

// Writes `n` (at most 4) zeros: 4 always.
char* fill_zeros(char* out, int n) noexcept {
    std::memcpy(out, "0000", 4);
    return out + n;
}

// The digits of a whole number below 2^128.
char* whole_digits(char* out, whole_number n) noexcept {
    constexpr std::uint64_t e19 = 10'000'000'000'000'000'000u;
    char buffer[40];
    char* const end = buffer + sizeof buffer;
    char* first;
    if (n <= UINT64_MAX) {
        first = digits_before(end, static_cast<std::uint64_t>(n));
    } else { // below 1e22 here: two parts, the low one 19 digits with its zeros
        char* const low = digits_before(end, static_cast<std::uint64_t>(n % e19));
        first = digits_before(end - 19, static_cast<std::uint64_t>(n / e19));
        std::memset(end - 19, '0', static_cast<std::size_t>(low - (end - 19)));
    }
    const auto length = static_cast<std::size_t>(end - first);
    std::memcpy(out, first, length);
    return out + length;
}

// `significand` × 10^`exponent` in the shorter of fixed and scientific notation, fixed on a
// tie: the rule std::to_chars follows without a format. `whole`, the value when it has
// trailing zeros in fixed notation: those digits are then written exactly, as printf's %.0f.
// Writes past the text's end, within 48 bytes of `out`: the last copy of at most 20 bytes
// starts by the 19th.
char* lay_out(char* out, std::uint64_t significand, int exponent, whole_number whole) noexcept {
    char buffer[40]; // the digits end at its 20th byte, and 20 bytes from their first are in it
    const char* const end = buffer + 20;
    const char* const digits = digits_before(buffer + 20, significand);
    const int n = static_cast<int>(end - digits);
    const int scientific_exponent = exponent + n - 1;
    const int magnitude = scientific_exponent < 0 ? -scientific_exponent : scientific_exponent;
    const int scientific_length = n + (n > 1) + 2 + (magnitude >= 100 ? 3 : 2);
    const int fixed_length = exponent >= 0 ? n + exponent : n + exponent > 0 ? n + 1 : 2 - exponent;
    if (fixed_length <= scientific_length) {
        if (exponent > 0) return whole_digits(out, whole);
        if (exponent == 0) return copy(out, digits, n);
        if (n + exponent > 0) { // the point among the digits
            out = copy(out, digits, n + exponent);
            *out++ = '.';
            return copy(out, digits + n + exponent, -exponent);
        }
        *out++ = '0';
        *out++ = '.';
        return copy(fill_zeros(out, -exponent - n), digits, n);
    }
    *out++ = digits[0];
    if (n > 1) {
        *out++ = '.';
        out = copy(out, digits + 1, n - 1);
    }
    *out++ = 'e';
    *out++ = scientific_exponent < 0 ? '-' : '+';
    if (magnitude >= 100) *out++ = static_cast<char>('0' + magnitude / 100);
    std::memcpy(out, digit_pairs + magnitude % 100 * 2, 2);
    return out + 2;
}

template <class F>
char* write_shortest(char* out, F v) noexcept {
    if (std::signbit(v)) *out++ = '-';
    if (v == 0) {
        *out++ = '0';
        return out;
    }
    const auto decimal = fmt::detail::dragonbox::to_decimal(v);
    // With trailing zeros the value is whole (a fraction has no shortest digits ending in
    // zeros: the whole numbers near it are exact), and below 1e22 where fixed is chosen.
    const F magnitude = std::fabs(v);
    const auto whole = decimal.exponent > 0 && magnitude < F(1e22) ? static_cast<whole_number>(magnitude) : 0;
    return lay_out(out, decimal.significand, decimal.exponent, whole);
}

} // namespace

char* shortest_text(char* out, double v) noexcept { return write_shortest(out, v); }
char* shortest_text(char* out, float v) noexcept { return write_shortest(out, v); }

} // namespace forma::json_detail
