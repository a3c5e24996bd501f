#pragma once
// Where something is in JSON text, as error messages say it, for the code in lib/.

#include <forma/json/detail/reader.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/// A member name as a JSON Pointer token: `~` written `~0` and `/` written `~1`.
inline std::string pointer_token(std::string_view key) {
    std::string token;
    token.reserve(key.size());
    for (char c : key) {
        if (c == '~') token += "~0";
        else if (c == '/') token += "~1";
        else token += c;
    }
    return token;
}

/// The tokens of a JSON Pointer, unescaped: "/a~1b/0" is "a/b" and "0"; "" has none. Nullopt
/// when a `~` is not followed by `0` or `1`.
inline std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer) {
    std::vector<std::string> tokens;
    for (std::size_t pos = 0; pos < pointer.size();) {
        const std::size_t next = std::min(pointer.find('/', pos + 1), pointer.size());
        std::string& token = tokens.emplace_back();
        for (std::size_t i = pos + 1; i < next; ++i) {
            if (pointer[i] != '~') token += pointer[i];
            else if (i + 1 < next && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) token += pointer[++i] == '0' ? '~' : '/';
            else return std::nullopt;
        }
        pos = next;
    }
    return tokens;
}

/// "line 3, column 7" for the byte at `offset` of `text`; columns count code points, as an
/// editor shows them.
inline std::string line_and_column(std::string_view text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// The offset of the first byte of `s` that does not start valid UTF-8, or npos.
inline std::size_t invalid_utf8_offset(std::string_view s) noexcept {
    const char* const end = s.data() + s.size();
    for (const char* p = s.data(); p != end;) {
        // ASCII eight bytes at a time: what servers write is mostly that.
        if (end - p >= 8) {
            std::uint64_t eight;
            std::memcpy(&eight, p, 8);
            if ((eight & 0x8080808080808080ULL) == 0) {
                p += 8;
                continue;
            }
        }
        if (static_cast<unsigned char>(*p) < 0x80) {
            ++p;
            continue;
        }
        const int n = json_detail::utf8_sequence_length(p, end);
        if (n == 0) return static_cast<std::size_t>(p - s.data());
        p += n;
    }
    return std::string_view::npos;
}

/// `s` with each byte that does not start valid UTF-8 replaced by U+FFFD: text from anywhere,
/// made fit to go into JSON that must stay valid.
inline std::string valid_utf8(std::string_view s) {
    std::size_t bad = invalid_utf8_offset(s);
    if (bad == std::string_view::npos) return std::string(s);
    std::string out;
    out.reserve(s.size() + 8);
    while (bad != std::string_view::npos) {
        out.append(s.substr(0, bad)).append("\xEF\xBF\xBD");
        s.remove_prefix(bad + 1);
        bad = invalid_utf8_offset(s);
    }
    return out.append(s);
}

/// `s` in double quotes for a message, valid UTF-8 (valid_utf8). Call it qualified: an unqualified
/// `quoted(text)` may find std::quoted.
inline std::string quoted(std::string_view s) { return '"' + valid_utf8(s) + '"'; }

class writer;

/// Appends `s` to `out` as a JSON string, a byte that does not start valid UTF-8 written as U+FFFD.
void append_json_string(std::string& out, std::string_view s);
/// The same through a writer, for text written a piece at a time.
void write_json_string(writer& w, std::string_view s);

/// `value` as JSON text that is valid UTF-8 whatever its strings hold (a string that came from
/// anywhere: a model's tool arguments, a peer's words): Boost.JSON writes a string's bytes as they
/// are, so a byte that does not start valid UTF-8, always inside a string, becomes U+FFFD there.
/// What a server answers is written with it.
template <class Json> // boost::json::value, object or array
std::string serialize_utf8(const Json& value) {
    std::string text = boost::json::serialize(value);
    if (invalid_utf8_offset(text) == std::string_view::npos) return text;
    return valid_utf8(text);
}

} // namespace forma::json_detail
