// The out-of-line parts of the JSON reader: escapes, skipping unknown values,
// and building error messages (cold paths kept out of users' code).
#include <forma/json/detail/reader.hpp>

#include "string_escapes.hpp"
#include "json_text.hpp"

#include <forma/registered_secret.hpp>

#include <algorithm>
#include <array>

namespace forma::json_detail {

std::string quoted_excerpt(std::string_view text, std::size_t limit) {
    // Escaped as JSON: a line break or a quote in the text cannot break the message.
    // Redacted before the cut, which would leave part of a secret.
    const std::string redacted = redact_secrets(text);
    const std::string_view s = redacted;
    std::string_view shown = s;
    if (s.size() > limit) {
        std::size_t cut = limit;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        shown = s.substr(0, cut);
    }
    std::string out = "\"";
    for (const char c : shown) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || c == '"' || c == '\\') append_escaped(out, byte);
        else out += c;
    }
    if (shown.size() < s.size()) out += "...";
    out += '"';
    return out;
}

bool key_set::insert(std::string_view key) {
    constexpr std::size_t linear_limit = 16;
    if (!large_.empty()) return large_.emplace(key).second;
    if (std::find(small_.begin(), small_.end(), key) != small_.end()) return false;
    if (small_.size() < linear_limit) {
        small_.emplace_back(key);
        return true;
    }
    large_.insert(small_.begin(), small_.end());
    small_.clear();
    return large_.emplace(key).second;
}

const char* skip_blank_sse2(const char* q, const char* end) noexcept {
#if defined(__SSE2__)
    // Indented JSON: a line break and its indentation, 16 bytes at a time.
    for (; end - q >= 16; q += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        const int blank = _mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')))));
        if (blank != 0xFFFF) return q + __builtin_ctz(~static_cast<unsigned>(blank));
    }
#endif
    while (q != end && is_blank(*q)) ++q;
    return q;
}

void reader::skip_new_indentation(std::size_t level) noexcept {
    const char* const q = skip_blank(p, end);
    if (level < std::size(indentation_)) {
        const auto n = static_cast<std::size_t>(q - p);
        const bool line = n != 0 && n < 32 && *p == '\n' && std::all_of(p + 1, q, [](char c) { return c == ' '; });
        indentation_[level] = static_cast<std::uint8_t>(line ? n : 0);
    }
    p = q;
}

const char* reader::read_string_at(const char* q, std::string& out) {
    std::string_view text;
    bool unescaped;
    if (!scan_string(q, unescaped_, text, unescaped)) return nullptr;
    out.assign(text.data(), text.size());
    return q;
}

bool reader::unescape_string(const char* start, std::string& buffer, std::size_t& length) {
    // p is at the first backslash; [start, p) is verbatim and already checked. Both cursors
    // are locals: std::string's per-append checks cost more than the copy, and a store
    // through `out` (a char*) would make the compiler reload members `p` and `end` after it.
    const char* in = p;
    const char* const stop = end;
    char* out = buffer.data();
    char* limit = out + buffer.size();
    auto make_room = [&](std::size_t n) {
        if (static_cast<std::size_t>(limit - out) >= n) [[likely]]
            return;
        const auto used = static_cast<std::size_t>(out - buffer.data());
        buffer.resize(std::max({used + n, 2 * buffer.size(), std::size_t{256}}));
        out = buffer.data() + used;
        limit = buffer.data() + buffer.size();
    };
    auto fail_at = [&](const char* at, const char* what) {
        p = at;
        return fail_syntax(what);
    };
    // Copies [from, from + n), text already checked, in whole blocks of 16 where they can be
    // read: memcpy's choice of a method by length mispredicted often on these varied lengths.
    auto copy_checked = [&](const char* from, std::size_t n) {
#if defined(__SSE2__)
        const std::size_t blocks = (n + 15) & ~std::size_t{15};
        make_room(blocks);
        if (static_cast<std::size_t>(stop - from) >= blocks) {
            for (std::size_t i = 0; i < n; i += 16)
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i)));
            out += n;
            return;
        }
#endif
        make_room(n);
        std::memcpy(out, from, n);
        out += n;
    };
    copy_checked(start, static_cast<std::size_t>(in - start));
    // Copies verbatim text up to the next byte that needs a look, a block at a time: each
    // block is stored whole, only its bytes before that one count.
    auto copy_verbatim = [&] {
#if defined(__SSE2__)
        while (stop - in >= 16) {
            make_room(16);
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
            if (const int mask = string_special_mask(v)) {
                const int n = __builtin_ctz(static_cast<unsigned>(mask));
                out += n;
                in += n;
                return;
            }
            out += 16;
            in += 16;
        }
#endif
        for (; in != stop && !is_string_special(*in); ++in) {
            make_room(1);
            *out++ = *in;
        }
    };
    for (;;) {
        copy_verbatim();
        if (in == stop) return fail_at(in, "unterminated string");
        const auto c = static_cast<unsigned char>(*in);
        if (c == '"') {
            p = in + 1;
            length = static_cast<std::size_t>(out - buffer.data());
            return true;
        }
        if (c >= 0x80) {
            const char* const run = in;
            if (!skip_utf8_run(in, stop)) {
                p = in;
                return fail_utf8();
            }
            copy_checked(run, static_cast<std::size_t>(in - run));
            continue;
        }
        if (c < 0x20) {
            p = in;
            return fail_control_character();
        }
        // A backslash escape.
        if (stop - in < 2) return fail_at(in, "unterminated string");
        const char e = in[1];
        in += 2;
        make_room(4);
        if (e == 'u') {
            auto read_hex4 = [&](std::uint32_t& v) {
                if (stop - in < 4) return false;
                v = 0;
                for (int i = 0; i < 4; ++i) {
                    const int h = hex_value(in[i]);
                    if (h < 0) return false;
                    v = v * 16 + static_cast<std::uint32_t>(h);
                }
                in += 4;
                return true;
            };
            std::uint32_t cp;
            if (!read_hex4(cp)) return fail_at(in, "invalid \\u escape: expected four hex digits");
            if (cp >= 0xDC00 && cp <= 0xDFFF) return fail_at(in, "invalid \\u escape: unpaired low surrogate");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                std::uint32_t low;
                if (stop - in < 2 || in[0] != '\\' || in[1] != 'u')
                    return fail_at(in, "invalid \\u escape: unpaired high surrogate");
                in += 2;
                if (!read_hex4(low) || low < 0xDC00 || low > 0xDFFF)
                    return fail_at(in, "invalid \\u escape: unpaired high surrogate");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            out = write_utf8(out, cp);
        } else if (const char unescaped = simple_escapes[static_cast<unsigned char>(e)]) {
            *out++ = unescaped; // a table, not a switch: its indirect jump mispredicted often
        } else {
            return fail_at(in - 2, "invalid escape sequence in string");
        }
    }
}

bool reader::skip_value() {
    skip_whitespace();
    if (p == end) return fail_syntax("unexpected end of input, expected a value");
    switch (*p) {
    case '"': {
        std::string_view key;
        bool from_scratch;
        return read_key(key, from_scratch); // validates without keeping the text
    }
    case '{': {
        if (!enter()) return false;
        ++p;
        skip_whitespace();
        if (p != end && *p == '}') {
            ++p;
            leave();
            return true;
        }
        key_set keys;
        for (;;) {
            skip_whitespace();
            if (p == end || *p != '"') return fail_syntax("expected a member name in double quotes");
            std::string_view key;
            bool from_scratch;
            if (!read_key(key, from_scratch)) return false;
            std::string owned_key(key);
            if (!keys.insert(owned_key)) return fail_duplicate(owned_key);
            if (!expect(':', "after a member name")) return false;
            if (!skip_value()) return push_key(owned_key);
            skip_whitespace();
            if (p != end && *p == ',') {
                ++p;
                continue;
            }
            if (p != end && *p == '}') {
                ++p;
                leave();
                return true;
            }
            return fail_syntax("expected ',' or '}' after a member value");
        }
    }
    case '[': {
        if (!enter()) return false;
        ++p;
        skip_whitespace();
        if (p != end && *p == ']') {
            ++p;
            leave();
            return true;
        }
        for (std::size_t i = 0;; ++i) {
            if (!skip_value()) return push_index(i);
            skip_whitespace();
            if (p != end && *p == ',') {
                ++p;
                continue;
            }
            if (p != end && *p == ']') {
                ++p;
                leave();
                return true;
            }
            return fail_syntax("expected ',' or ']' after an array element");
        }
    }
    case 't':
        if (end - p >= 4 && std::memcmp(p, "true", 4) == 0) return p += 4, true;
        return fail_syntax("invalid literal");
    case 'f':
        if (end - p >= 5 && std::memcmp(p, "false", 5) == 0) return p += 5, true;
        return fail_syntax("invalid literal");
    case 'n':
        if (end - p >= 4 && std::memcmp(p, "null", 4) == 0) return p += 4, true;
        return fail_syntax("invalid literal");
    default: {
        scanned_number number;
        return scan_number(number);
    }
    }
}

bool reader::fail(std::string reason) {
    reason_ = std::move(reason);
    error_offset_ = offset();
    path_.clear();
    fatal_ = false;
    return false;
}

bool reader::fail_syntax(const char* what) {
    if (p == end && std::string_view(what).find("end of input") == std::string_view::npos)
        fail("invalid JSON: unexpected end of input (" + std::string(what) + ")");
    else // line and column make a syntax error findable in a long model answer
        fail("invalid JSON: " + std::string(what) + " (" +
             json_detail::line_and_column(std::string_view(begin_, static_cast<std::size_t>(end - begin_)),
                                         static_cast<std::size_t>(p - begin_)) +
             ")");
    fatal_ = true;
    return false;
}

bool reader::fail_expected(char c, const char* context) {
    const std::string what = std::string("expected '") + c + "' " + context;
    return fail_syntax(what.c_str());
}

namespace {

// A string's source text, which JSON has escaped already: cut whole escapes and code
// points, not escaped again.
std::string quoted_source(std::string_view text, std::size_t limit = 40) {
    const std::string redacted = redact_secrets(text); // before the cut, which would leave part of a secret
    const std::string_view s = redacted;
    std::string out = "\"";
    std::size_t i = 0;
    while (i < s.size() && i < limit) {
        std::size_t n = 1;
        if (s[i] == '\\') n = i + 1 < s.size() && s[i + 1] == 'u' ? 6 : 2;
        else
            while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
        n = std::min(n, s.size() - i);
        if (const auto c = static_cast<unsigned char>(s[i]); c < 0x20) append_escaped(out, c); // invalid JSON
        else out.append(s, i, n);
        i += n;
    }
    if (i < s.size()) out += "...";
    out += '"';
    return out;
}

} // namespace

std::string reader::describe_value_here() const {
    if (p == end) return "end of input";
    switch (*p) {
    case '"': {
        const char* q = p + 1;
        while (q < end && *q != '"') q += (*q == '\\' && q + 1 < end) ? 2 : 1;
        return "string " + quoted_source(std::string_view(p + 1, static_cast<std::size_t>(q - p - 1)));
    }
    case '{': return "object";
    case '[': return "array";
    case 't': return "true";
    case 'f': return "false";
    case 'n': return "null";
    default: break;
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        const char* q = p + 1;
        while (q < end && (std::isdigit(static_cast<unsigned char>(*q)) || *q == '.' || *q == 'e' ||
                           *q == 'E' || *q == '+' || *q == '-'))
            ++q;
        std::string_view text(p, static_cast<std::size_t>(std::min<std::ptrdiff_t>(q - p, 40)));
        return "number " + std::string(text);
    }
    return "invalid JSON";
}

bool reader::fail_type(std::string_view expected) {
    if (p != end) {
        const char c = *p;
        const bool value_start = c == '"' || c == '{' || c == '[' || c == 't' || c == 'f' ||
                                 c == 'n' || c == '-' || (c >= '0' && c <= '9');
        if (!value_start) return fail_syntax("expected a value");
        // A broken literal ("tru") is bad JSON, not a value of another type.
        if (c == 't' || c == 'f' || c == 'n') {
            const std::string_view literal = c == 't' ? "true" : c == 'f' ? "false" : "null";
            if (static_cast<std::size_t>(end - p) < literal.size() || std::string_view(p, literal.size()) != literal)
                return fail_syntax("invalid literal");
        }
    } else {
        return fail_syntax("unexpected end of input, expected a value");
    }
    return fail("expected " + std::string(expected) + ", got " + describe_value_here());
}

bool reader::fail_depth() {
    fail("nesting is deeper than the limit of " + std::to_string(max_depth_) + " (parse_options::max_depth)");
    fatal_ = true;
    return false;
}

std::string string_too_long_reason(std::size_t limit) {
    return "a string is longer than the limit of " + std::to_string(limit) +
           " bytes (parse_options::max_string_length)";
}

bool reader::fail_string_length(const char* start) {
    p = start - 1; // the error's offset is the opening quote
    fail(string_too_long_reason(max_string_length_));
    fatal_ = true;
    return false;
}

bool reader::fail_utf8() { return fail_syntax("invalid UTF-8 in string"); }

bool reader::fail_control_character() {
    return fail_syntax("unescaped control character in string");
}

bool reader::fail_number(const char* start) {
    p = start;
    return fail_syntax("invalid number");
}

bool reader::fail_leading_zero(const char* start) {
    p = start;
    return fail_syntax("invalid number: leading zeros are not allowed");
}

bool reader::fail_duplicate(std::string_view key) {
    fail("duplicate member " + quoted_excerpt(key, 64));
    fatal_ = true; // which of the two values was meant is anyone's guess
    return false;
}

bool reader::fail_unknown(std::string_view key) {
    return fail("unknown member " + quoted_excerpt(key, 64) +
                " (parse_options::reject_unknown_members is set)");
}

bool reader::push_key(std::string_view key) { return unwind_through(path_, path_segment::member(key)); }

bool reader::push_index(std::size_t index) { return unwind_through(path_, path_segment::element(index)); }

std::string json_pointer(const std::vector<path_segment>& innermost_first) {
    std::string pointer;
    for (auto it = innermost_first.rbegin(); it != innermost_first.rend(); ++it) {
        pointer += '/';
        if (it->is_index) {
            pointer += std::to_string(it->index);
            continue;
        }
        pointer += json_detail::pointer_token(it->key);
    }
    return pointer;
}

std::string reader::relative_path() const { return json_pointer(path_); }

json_error reader::take_error() {
    return json_error(relative_path(), std::move(reason_), error_offset_);
}

void reader::clear_error() noexcept {
    reason_.clear();
    path_.clear();
    error_offset_ = json_error::npos;
    fatal_ = false;
}

namespace {

// Adds to `out` (outermost first) the segments from the value at r.p down to the value
// that starts at `target`. The text before `target` is valid JSON: a value that cannot be
// skipped holds the target.
void descend_to(reader& r, const char* target, std::vector<path_segment>& out) {
    for (std::size_t level = 0;; ++level) {
        r.skip_whitespace();
        if (r.p >= target || r.at_end() || (*r.p != '{' && *r.p != '[')) return;
        const bool object = *r.p == '{';
        ++r.p;
        for (std::size_t index = 0;; ++index) {
            r.skip_whitespace();
            path_segment segment{{}, index, !object};
            if (object) {
                std::string_view key;
                bool from_scratch;
                if (r.at_end() || *r.p != '"' || !r.read_key(key, from_scratch) || !r.expect(':', "")) return;
                segment.key.assign(key);
            }
            r.skip_whitespace();
            const char* value = r.p;
            // A failed skip leaves the depth of wherever it stopped: each try starts afresh.
            r.set_depth(level + 1);
            const bool skipped = value != target && r.skip_value();
            if (!skipped) r.clear_error();
            if (!skipped || r.p > target) {
                out.push_back(std::move(segment));
                r.p = value;
                break; // into the value
            }
            r.skip_whitespace();
            if (r.at_end() || *r.p != ',') return;
            ++r.p;
        }
    }
}

} // namespace

bool reader::record_error(const char* container) {
    if (!collected_ || fatal_) return false;
    // The container's place in the document, found again from the start: errors are rare.
    std::vector<path_segment> outer;
    reader locator(std::string_view(begin_, static_cast<std::size_t>(end - begin_)),
                   parse_options{.max_depth = max_depth_, .max_string_length = max_string_length_});
    descend_to(locator, container, outer);
    std::reverse(outer.begin(), outer.end()); // innermost first, as path_
    path_.insert(path_.end(), outer.begin(), outer.end());
    collected_->push_back(take_error());
    clear_error();
    if (collected_->size() < collect_limit_) return true;
    collected_ = nullptr; // enough: the read ends with no further error
    return false;
}

bool reader::step_over(path_segment segment, const char* container, const char* value_start, std::size_t depth) {
    path_.push_back(segment);
    if (!record_error(container)) return false;
    p = value_start;
    depth_ = depth;
    if (skip_value()) return true;
    path_.push_back(std::move(segment));
    return false;
}

bool reader::step_over(std::string_view key, const char* container, const char* value_start, std::size_t depth) {
    return step_over(path_segment::member(key), container, value_start, depth);
}

bool reader::step_over(std::size_t index, const char* container, const char* value_start, std::size_t depth) {
    return step_over(path_segment::element(index), container, value_start, depth);
}

} // namespace forma::json_detail
