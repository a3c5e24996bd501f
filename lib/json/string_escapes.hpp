#pragma once
// What reading and writing a JSON string needs: hex digits, escapes, UTF-8 encoding.
// Shared by the whole-text reader, the incremental tokenizer and the writer.

#include <array>
#include <cstdint>
#include <string>

namespace forma::json_detail {

inline int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// What each one-letter escape (\n, \", ...) stands for; 0 where there is none.
inline constexpr auto simple_escapes = [] {
    std::array<char, 256> table{};
    table['"'] = '"';
    table['\\'] = '\\';
    table['/'] = '/';
    table['b'] = '\b';
    table['f'] = '\f';
    table['n'] = '\n';
    table['r'] = '\r';
    table['t'] = '\t';
    return table;
}();

/// Writes cp as UTF-8 at dst (room for 4 bytes); returns the end of what it wrote.
inline char* write_utf8(char* dst, std::uint32_t cp) noexcept {
    if (cp < 0x80) {
        *dst++ = static_cast<char>(cp);
    } else if (cp < 0x800) {
        *dst++ = static_cast<char>(0xC0 | (cp >> 6));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *dst++ = static_cast<char>(0xE0 | (cp >> 12));
        *dst++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        *dst++ = static_cast<char>(0xF0 | (cp >> 18));
        *dst++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        *dst++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = static_cast<char>(0x80 | (cp & 0x3F));
    }
    return dst;
}

/// Writes `c`, a quote, a backslash or a control character, escaped as JSON writes it, at
/// `dst` (room for 6 bytes); returns the end of what it wrote.
inline char* write_escaped(char* dst, unsigned char c) noexcept {
    static constexpr char hex[] = "0123456789abcdef";
    *dst++ = '\\';
    switch (c) {
    case '"': *dst++ = '"'; break;
    case '\\': *dst++ = '\\'; break;
    case '\n': *dst++ = 'n'; break;
    case '\r': *dst++ = 'r'; break;
    case '\t': *dst++ = 't'; break;
    case '\b': *dst++ = 'b'; break;
    case '\f': *dst++ = 'f'; break;
    default:
        *dst++ = 'u';
        *dst++ = '0';
        *dst++ = '0';
        *dst++ = hex[c >> 4];
        *dst++ = hex[c & 0xF];
    }
    return dst;
}

/// Appends `c` escaped (see write_escaped).
inline void append_escaped(std::string& out, unsigned char c) {
    char escaped[6];
    out.append(escaped, write_escaped(escaped, c));
}

} // namespace forma::json_detail
