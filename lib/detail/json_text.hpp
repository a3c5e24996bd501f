#pragma once
// Where something is in JSON text, as error messages say it, for the code in lib/.

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::lib_detail {

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

} // namespace forma::lib_detail
