#include <forma/telemetry/span_context.hpp>

#include "../text/random_bytes.hpp"

namespace forma::telemetry {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

template <std::size_t N>
bool all_zero(const std::array<std::uint8_t, N>& bytes) noexcept {
    std::uint8_t any = 0;
    for (std::uint8_t b : bytes) any |= b;
    return any == 0;
}

// From the kernel's generator, as every id forma makes: a generator seeded with 32 bits (as
// std::random_device gives) made two of 65,000 processes trace with the same ids, with a chance of 2 in 5.
template <std::size_t N>
std::array<std::uint8_t, N> random_id() {
    std::array<std::uint8_t, N> id{};
    do text_detail::random_bytes(id.data(), N);
    while (all_zero(id));
    return id;
}

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& bytes) {
    std::string out(2 * N, '0');
    for (std::size_t i = 0; i < N; ++i) {
        out[2 * i] = hex_digits[bytes[i] >> 4];
        out[2 * i + 1] = hex_digits[bytes[i] & 0xF];
    }
    return out;
}

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1; // W3C: lowercase only
}

template <std::size_t N>
bool read_hex(std::string_view text, std::array<std::uint8_t, N>& out) noexcept {
    if (text.size() != 2 * N) return false;
    for (std::size_t i = 0; i < N; ++i) {
        const int high = hex_value(text[2 * i]), low = hex_value(text[2 * i + 1]);
        if (high < 0 || low < 0) return false;
        out[i] = static_cast<std::uint8_t>(high << 4 | low);
    }
    return true;
}

} // namespace

bool span_context::valid() const noexcept { return !all_zero(trace_id) && !all_zero(span_id); }

trace_id make_trace_id() { return random_id<16>(); }
span_id make_span_id() { return random_id<8>(); }

std::string to_hex(const trace_id& id) { return hex(id); }
std::string to_hex(const span_id& id) { return hex(id); }

std::string to_traceparent(const span_context& context) {
    return "00-" + hex(context.trace_id) + "-" + hex(context.span_id) + (context.sampled ? "-01" : "-00");
}

std::optional<span_context> parse_traceparent(std::string_view header) noexcept {
    // version "00": 2 + 1 + 32 + 1 + 16 + 1 + 2 characters.
    if (header.size() != 55 || header.substr(0, 3) != "00-" || header[35] != '-' || header[52] != '-')
        return std::nullopt;
    span_context context;
    std::array<std::uint8_t, 1> flags{};
    if (!read_hex(header.substr(3, 32), context.trace_id) || !read_hex(header.substr(36, 16), context.span_id) ||
        !read_hex(header.substr(53, 2), flags) || !context.valid())
        return std::nullopt;
    context.sampled = (flags[0] & 1) != 0;
    return context;
}

} // namespace forma::telemetry
