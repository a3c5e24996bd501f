#pragma once
// The start of a peer's body (an error page, a broken answer) as an error message quotes it.

#include "json_text.hpp"

#include <forma/registered_secret.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace forma::json_detail {

/** At most `limit` bytes of `body` for a message: registered secrets redacted first (so a cut
    leaves no part of one), valid UTF-8 (bad bytes as U+FFFD), whitespace runs as one space,
    control characters as '?', cut between characters with "..." after the cut.
*/
inline std::string body_excerpt(std::string_view body, std::size_t limit = 300) {
    const std::string text = valid_utf8(redact_secrets(body));
    std::string out;
    bool blank = false;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        std::size_t n = 1; // the bytes of this character
        while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            blank = !out.empty();
            i += n;
            continue;
        }
        if (out.size() + n + (blank ? 1 : 0) > limit) {
            out += "...";
            break;
        }
        if (blank) out += ' ';
        blank = false;
        if (c < 0x20 || c == 0x7F) out += '?';
        else out.append(text, i, n);
        i += n;
    }
    return out;
}

} // namespace forma::json_detail
