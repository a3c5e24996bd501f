// JSON Schema `pattern` on Boost.Regex, with ECMA-262's line, escape and code point rules.
#include "ecma_pattern.hpp"

#include <forma/json/detail/reader.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <locale>
#include <optional>
#include <stdexcept>

namespace forma::json_detail {

namespace {

std::optional<std::uint32_t> hex_digits(std::wstring_view digits) {
    if (digits.empty() || digits.size() > 6) return std::nullopt;
    std::uint32_t v = 0;
    for (const wchar_t c : digits) {
        const int d = c >= L'0' && c <= L'9'   ? c - L'0'
                      : c >= L'a' && c <= L'f' ? c - L'a' + 10
                      : c >= L'A' && c <= L'F' ? c - L'A' + 10
                                               : -1;
        if (d < 0) return std::nullopt;
        v = v * 16 + static_cast<std::uint32_t>(d);
    }
    return v;
}

// The code point of `\uXXXX`, `\u{X...}` or a surrogate pair `\uD83D\uDE00` at p[i];
// moves i to the escape's last character.
std::uint32_t unicode_escape(std::wstring_view p, std::size_t& i) {
    std::optional<std::uint32_t> cp;
    std::size_t last = i + 5;
    if (i + 2 < p.size() && p[i + 2] == L'{') {
        const std::size_t close = p.find(L'}', i + 3);
        if (close != std::wstring_view::npos) {
            cp = hex_digits(p.substr(i + 3, close - i - 3));
            last = close;
        }
    } else if (i + 6 <= p.size()) {
        cp = hex_digits(p.substr(i + 2, 4));
    }
    if (!cp || *cp > 0x10FFFF) throw boost::regex_error(boost::regex_constants::error_escape);
    if (*cp >= 0xD800 && *cp < 0xDC00 && p.size() >= last + 7 && p.substr(last + 1, 2) == L"\\u")
        if (const auto low = hex_digits(p.substr(last + 3, 4)); low && *low >= 0xDC00 && *low < 0xE000) {
            cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
            last += 6;
        }
    i = last;
    return *cp;
}

void append_code_point_escape(std::wstring& out, std::uint32_t cp) {
    static constexpr wchar_t hex[] = L"0123456789abcdef";
    std::wstring digits;
    do {
        digits.insert(digits.begin(), hex[cp % 16]);
        cp /= 16;
    } while (cp != 0);
    out += L"\\x{" + digits + L"}";
}

// The pattern in Boost's Perl syntax where ECMA-262 differs: `\u` escapes (Boost reads
// `\u` as an upper-case letter), `.` (Boost also stops at \f, U+0085, and at code points
// whose low 16 bits are a line separator's), `[^]` and `[]`; `\p{...}` is refused.
std::wstring boost_syntax(std::wstring_view p) {
    std::wstring out;
    out.reserve(p.size());
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const wchar_t c = p[i];
        if (c == L'\\' && i + 1 < p.size()) {
            if (p[i + 1] == L'u') {
                append_code_point_escape(out, unicode_escape(p, i));
            } else if (p[i + 1] == L'p' || p[i + 1] == L'P') {
                // Boost would read \p{L} as its own class names, under the classic locale.
                throw boost::regex_error("Unicode property escapes (\\p{...}) are not supported",
                                         boost::regex_constants::error_escape, static_cast<std::ptrdiff_t>(i));
            } else {
                out += c;
                out += p[++i];
            }
        } else if (in_class) {
            in_class = c != L']';
            out += c;
        } else if (p.substr(i, 3) == L"[^]") {
            out += L"[\\s\\S]";
            i += 2;
        } else if (p.substr(i, 2) == L"[]") {
            out += L"(?!)";
            i += 1;
        } else if (c == L'[') {
            in_class = true;
            out += c;
            if (i + 1 < p.size() && p[i + 1] == L'^') out += p[++i];
        } else if (c == L'.') {
            out += L"[^\\n\\r\\x{2028}\\x{2029}]";
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

compiled_pattern compile_pattern(std::string_view source) {
    // no_mod_m: `^` and `$` only at the ends of the text, as ECMA-262 without its `m` flag.
    const std::wstring text = boost_syntax(utf32_text(source));
    compiled_pattern p{std::string(source), boost::wregex()};
    p.regex.imbue(std::locale::classic()); // \w and \d are ASCII, whatever the global locale
    p.regex.assign(text.begin(), text.end(), boost::wregex::ECMAScript | boost::wregex::no_mod_m);
    return p;
}

match_result search(const compiled_pattern& pattern, std::string_view text) {
    const std::wstring code_points = utf32_text(text);
    try {
        return boost::regex_search(code_points.begin(), code_points.end(), pattern.regex)
                   ? match_result::yes
                   : match_result::no;
    } catch (const std::runtime_error&) {
        return match_result::too_complex; // Boost.Regex bounds its work instead of recursing
    }
}

std::size_t search_step_bound(const compiled_pattern& pattern, std::size_t text_code_points) noexcept {
    // As perl_matcher::estimate_max_state_count computes it: the greater of N·S² + k and
    // min(N² + k, BOOST_REGEX_MAX_STATE_COUNT), k = 100000, or that maximum on overflow.
    constexpr std::size_t k = 100000;
    constexpr std::size_t cap = BOOST_REGEX_MAX_STATE_COUNT;
    constexpr std::size_t max = static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max());
    const std::size_t n = std::max<std::size_t>(text_code_points, 1);
    const std::size_t s = std::max<std::size_t>(pattern.regex.size(), 1);
    if (max / s < s || max / n < s * s || max - k < s * s * n) return cap;
    const std::size_t by_states = s * s * n + k;
    if (max / n < n || max - k < n * n) return cap;
    return std::max(by_states, std::min(n * n + k, cap));
}

std::wstring utf32_text(std::string_view s) {
    std::wstring out;
    out.reserve(s.size());
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p < end) {
        const auto c = static_cast<unsigned char>(*p);
        if (c < 0x80) {
            out += static_cast<wchar_t>(c);
            ++p;
            continue;
        }
        const int n = utf8_sequence_length(p, end);
        if (n == 0) {
            out += static_cast<wchar_t>(0xFFFD);
            ++p;
            continue;
        }
        std::uint32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
        for (int i = 1; i < n; ++i)
            cp = (cp << 6) | (static_cast<unsigned char>(p[i]) & 0x3F);
        out += static_cast<wchar_t>(cp);
        p += n;
    }
    return out;
}

} // namespace forma::json_detail
