#pragma once

#include <forma/json/json_error.hpp>
#include <forma/json/parse_options.hpp>

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace forma::json_detail {

/// Length of the valid UTF-8 sequence at p (2..4 bytes, RFC 3629: no overlongs,
/// no surrogates, at most U+10FFFF), or 0 when it is not valid.
inline int utf8_sequence_length(const char* s, const char* end) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(s);
    const std::ptrdiff_t left = end - s;
    const unsigned c = p[0];
    auto cont = [&](int i) { return (p[i] & 0xC0) == 0x80; };
    if (c < 0xC2) return 0;
    if (c < 0xE0) return left >= 2 && cont(1) ? 2 : 0;
    if (c < 0xF0) {
        if (left < 3 || !cont(1) || !cont(2)) return 0;
        if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)) return 0;
        return 3;
    }
    if (c < 0xF5) {
        if (left < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
        if ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)) return 0;
        return 4;
    }
    return 0;
}

/// Whether a string scan must look at `c`: '"', '\\', a control character or a non-ASCII byte.
inline bool is_string_special(char c) noexcept {
    const auto byte = static_cast<unsigned char>(c);
    return byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80;
}

#if defined(__SSE2__)
/// Bit i set when byte i of v is_string_special.
inline int string_special_mask(__m128i v) noexcept {
    // A signed compare with 0x20 catches control characters and bytes >= 0x80 at once.
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                  _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                     _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return _mm_movemask_epi8(hit);
}

/// string_special_mask of the 16 bytes at p.
inline int string_special_mask(const char* p) noexcept {
    return string_special_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
#endif

/// The first byte in [p, end) that is_string_special (end if none), and whether it is the
/// closing '"', told by the compare that found it: the common case, a string's end, waits for
/// no second load of that byte.
inline const char* find_string_special(const char* p, const char* end, bool& at_quote) noexcept {
#if defined(__SSE2__)
    for (; end - p >= 16; p += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        if (const int mask = string_special_mask(v)) {
            const int k = __builtin_ctz(mask);
            at_quote = (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) >> k) & 1;
            return p + k;
        }
    }
#endif
    while (p < end && !is_string_special(*p)) ++p;
    at_quote = p < end && *p == '"';
    return p;
}

/// A bit set at the top of each byte of `word` that is_string_special: the lowest one exact,
/// those above it may be set by a borrow.
template <class Word>
inline Word string_special_bits(Word word) noexcept {
    constexpr Word ones = static_cast<Word>(~Word{0}) / 0xFF;
    constexpr Word high = ones * 0x80;
    const auto zero_bytes = [](Word v) -> Word { return static_cast<Word>((v - ones) & ~v & high); };
    return static_cast<Word>(zero_bytes(word ^ (ones * '"')) | zero_bytes(word ^ (ones * '\\')) |
                             ((word - ones * 0x20) & ~word & high) | (word & high));
}

/** find_string_special for a whole string, as the writer has one: the bytes after its last
    16-byte block are scanned as one block ending at `end`, or as two words that overlap, not
    one by one (ids, names and short values end there).
*/
inline const char* find_string_special_in(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
    if (end - p >= 16) {
        for (; end - p > 16; p += 16)
            if (const int mask = string_special_mask(p)) return p + __builtin_ctz(mask);
        const char* const last = end - 16; // its bytes before p were scanned
        const int mask = string_special_mask(last);
        return mask ? last + __builtin_ctz(mask) : end;
    }
#endif
    if constexpr (std::endian::native == std::endian::little) {
        const auto scan_words = [&]<class Word>(Word) -> const char* {
            Word word;
            for (; end - p > static_cast<std::ptrdiff_t>(sizeof word); p += sizeof word) {
                std::memcpy(&word, p, sizeof word);
                if (const Word bits = string_special_bits(word)) return p + std::countr_zero(bits) / 8;
            }
            const char* const last = end - sizeof word;
            std::memcpy(&word, last, sizeof word);
            const Word bits = string_special_bits(word);
            return bits ? last + std::countr_zero(bits) / 8 : end;
        };
        if (end - p >= 8) return scan_words(std::uint64_t{});
        if (end - p >= 4) return scan_words(std::uint32_t{});
    }
    while (p < end && !is_string_special(*p)) ++p;
    return p;
}

/** Moves `p`, at a byte >= 0x80 after ASCII (or at the start of a string's text), past the run
    of non-ASCII text there, checking that it is valid UTF-8; where the CPU has AVX2, on past
    the text that follows, 32 bytes at a time, to the string's next '"', '\\' or control
    character (or near `end`). `p` ends at a character's start, where a string scan looks next.
    False, with `p` at the sequence that is not valid, when one is not. Out of line, so that the
    scans that inline it stay small.
*/
bool skip_utf8_run(const char*& p, const char* end) noexcept;

/// JSON white space: one compare rejects every byte above ' ', a bit test does the rest.
inline bool is_blank(char c) noexcept {
    constexpr std::uint64_t blanks = (1ull << ' ') | (1ull << '\n') | (1ull << '\r') | (1ull << '\t');
    return static_cast<unsigned char>(c) <= ' ' && ((blanks >> static_cast<unsigned char>(c)) & 1u);
}

/// The first byte from `q` that is not JSON white space, or `end`: 32 bytes at a time where
/// the CPU has AVX2, else skip_blank_sse2.
const char* skip_blank(const char* q, const char* end) noexcept;

/// skip_blank 16 bytes at a time (SSE2, or one by one where the target has none).
const char* skip_blank_sse2(const char* q, const char* end) noexcept;

/// Whether skip_utf8_run and skip_blank may use AVX2 (tests turn it off to check the other path).
extern bool avx2_scans_enabled;

/// find_string_special for text followed by at least 15 readable bytes (a padded_text):
/// short text is scanned 16 bytes at a time too.
inline const char* find_string_special_padded(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
    for (; p < end; p += 16)
        if (const int mask = string_special_mask(p)) return std::min(p + __builtin_ctz(mask), end);
    return end;
#else
    bool at_quote;
    return find_string_special(p, end, at_quote);
#endif
}

/// The value of 8 decimal digits (byte values 0 to 9, the first the most significant, in
/// memory order): three multiplications instead of eight steps.
inline std::uint32_t eight_digits_value(std::uint64_t digits) noexcept {
    digits = (digits * 10 + (digits >> 8)) & 0x00FF00FF00FF00FFu;      // pairs
    digits = (digits * 100 + (digits >> 16)) & 0x0000FFFF0000FFFFu;    // fours
    return static_cast<std::uint32_t>(digits * 10000 + (digits >> 32)); // eight
}

/// accumulate_digits past its first two digits: eight at a time where eight bytes can be read.
inline const char* accumulate_digit_words(const char* q, const char* end, std::uint64_t& value) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        constexpr std::uint64_t powers[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
        while (end - q >= 8) {
            std::uint64_t word;
            std::memcpy(&word, q, 8);
            // A byte's high bit is set below '0' (in word - '0's) or above '9' (in word + 0x46s);
            // bytes past the first non-digit may be wrong (borrows), and are not used.
            const std::uint64_t digits = word - 0x3030303030303030u;
            const std::uint64_t non_digits = (digits | (word + 0x4646464646464646u)) & 0x8080808080808080u;
            if (non_digits == 0) {
                value = value * 100000000 + eight_digits_value(digits);
                q += 8;
                continue;
            }
            const int count = std::countr_zero(non_digits) / 8;
            if (count != 0) value = value * powers[count] + eight_digits_value(digits << (8 * (8 - count)));
            return q + count;
        }
    }
    for (; q != end && static_cast<unsigned>(*q - '0') <= 9; ++q) value = value * 10 + static_cast<unsigned>(*q - '0');
    return q;
}

/** Reads the decimal digits at [q, end) into `value` (value × 10 + digit for each, modulo
    2^64) and returns their end. The first two one at a time: short runs cost least so.
*/
inline const char* accumulate_digits(const char* q, const char* end, std::uint64_t& value) noexcept {
    for (int i = 0; i < 2; ++i, ++q) {
        if (q == end || static_cast<unsigned>(*q - '0') > 9) return q;
        value = value * 10 + static_cast<unsigned>(*q - '0');
    }
    return accumulate_digit_words(q, end, value);
}

/// `"text"` in double quotes, cut at `limit` bytes (on a UTF-8 boundary) with "...".
std::string quoted_excerpt(std::string_view text, std::size_t limit = 40);

/// A segment of the path to an error: an object member or an array index.
struct path_segment {
    std::string key;
    std::size_t index = 0;
    bool is_index = false;

    static path_segment member(std::string_view name) { return {std::string(name), 0, false}; }
    static path_segment element(std::size_t i) { return {{}, i, true}; }
};

/// Adds the segment an error unwinds through to `innermost_first`; false, for the caller to return.
inline bool unwind_through(std::vector<path_segment>& innermost_first, path_segment segment) {
    innermost_first.push_back(std::move(segment));
    return false;
}

/// Why a string past parse_options::max_string_length is an error.
std::string string_too_long_reason(std::size_t limit);

/// The JSON Pointer of a path whose innermost segment comes first.
std::string json_pointer(const std::vector<path_segment>& innermost_first);

/// Member names seen in one object, for duplicate detection where no bitset applies.
class key_set {
public:
    /// False when the key was already there.
    bool insert(std::string_view key);

private:
    boost::container::small_vector<std::string, 8> small_;
    std::unordered_set<std::string> large_;
};

/// A JSON number as reader::scan_number read it: its text, and its value `significand` ×
/// 10^`exponent`, the significand whole when `digits` (leading zeros counted) is at most 19.
struct scanned_number {
    std::string_view text;
    std::uint64_t significand = 0;
    std::int64_t exponent = 0;
    std::ptrdiff_t digits = 0;
    bool negative = false;
    /// Neither a fraction nor an exponent.
    bool integral = true;
};

enum class number_syntax { valid, malformed, leading_zero };

/** Reads the JSON number that starts at `start` (and ends before `end`, or at the first byte
    that cannot go on) by JSON's grammar, and gathers its value on the way: one pass over its
    digits. The one check of the number grammar, for the reader and the streaming tokenizer.
*/
[[gnu::always_inline]] inline number_syntax scan_number(const char* start, const char* end, scanned_number& number) noexcept {
    const char* q = start;
    auto digit = [](char c) { return static_cast<unsigned>(c - '0') <= 9; };
    number.negative = q != end && *q == '-';
    q += number.negative;
    if (q == end || !digit(*q)) return number_syntax::malformed;
    const char* const first_digit = q;
    std::uint64_t significand = 0;
    if (*q == '0') {
        ++q;
        if (q != end && digit(*q)) return number_syntax::leading_zero;
    } else {
        // Integer parts here are usually short (coordinates, prices; an integer member is
        // read by read_integer): one digit at a time measured cheapest.
        for (; q != end && digit(*q); ++q) significand = significand * 10 + static_cast<unsigned>(*q - '0');
    }
    number.digits = q - first_digit;
    number.exponent = 0;
    number.integral = true;
    if (q != end && *q == '.') {
        number.integral = false;
        const char* const fraction = ++q;
        q = accumulate_digits(q, end, significand);
        if (q == fraction) return number_syntax::malformed;
        number.exponent = fraction - q;
        number.digits += q - fraction;
    }
    if (q != end && (*q == 'e' || *q == 'E')) {
        number.integral = false;
        ++q;
        bool negative_exponent = false;
        if (q != end && (*q == '+' || *q == '-')) negative_exponent = *q++ == '-';
        if (q == end || !digit(*q)) return number_syntax::malformed;
        std::int64_t written = 0;
        for (; q != end && digit(*q); ++q)
            if (written < 100000000) written = written * 10 + (*q - '0'); // far past any double's range
        number.exponent += negative_exponent ? -written : written;
    }
    number.significand = significand;
    number.text = std::string_view(start, static_cast<std::size_t>(q - start));
    return number_syntax::valid;
}

/** The state of one from_json call: input cursor, limits, and the error being built.

    Reading functions return false on error after recording the reason; each
    enclosing level adds its path segment on the way out, so the happy path
    pays nothing for error paths.
*/
class reader {
public:
    reader(std::string_view input, const parse_options& options) noexcept
        : p(input.data()), end(input.data() + input.size()), begin_(input.data()),
          max_depth_(options.max_depth), max_string_length_(options.max_string_length),
          reject_unknown_(options.reject_unknown_members) {}

    const char* p;
    const char* end;

    bool at_end() const noexcept { return p == end; }

    [[gnu::always_inline]] void skip_whitespace() noexcept {
        if (!skip_short_blank()) p = skip_blank(p, end); // a line break and its indentation
    }

    /// Steps over no white space (compact JSON) or one space (", " and ": ") before the next
    /// token; false when a longer run comes.
    [[gnu::always_inline]] bool skip_short_blank() noexcept {
        if (p != end && static_cast<unsigned char>(*p) > ' ') return true;
        if (end - p >= 2 && *p == ' ' && static_cast<unsigned char>(p[1]) > ' ') {
            ++p;
            return true;
        }
        return false;
    }

    /** skip_whitespace between the values of an indented document, whose next line is
        usually indented as its last line at the same depth was: a line break and that many
        spaces are checked in place, and the place after them is known before the check, not
        found by a scan. `level` is the depth of the container whose members come next (one
        less before its closing bracket, which lines up with the container's own line).
    */
    [[gnu::always_inline]] void skip_indentation(std::size_t level) noexcept {
        if (p != end && static_cast<unsigned char>(*p) > ' ') return;
        skip_blank_after(level);
    }

    /// skip_indentation where p is known to be at white space or the end.
    [[gnu::always_inline]] void skip_blank_after(std::size_t level) noexcept {
        if (level < std::size(indentation_) && indentation_[level] != 0 && is_indentation(p, indentation_[level])) {
            p += indentation_[level];
            return;
        }
        if (!skip_short_blank()) skip_new_indentation(level);
    }

    bool enter() {
        if (++depth_ > max_depth_) return fail_depth();
        return true;
    }
    void leave() noexcept { --depth_; }
    std::size_t depth() const noexcept { return depth_; }
    void set_depth(std::size_t d) noexcept { depth_ = d; }
    bool rejects_unknown_members() const noexcept { return reject_unknown_; }
    std::size_t max_string_length() const noexcept { return max_string_length_; }
    void set_rejects_unknown_members(bool reject) noexcept { reject_unknown_ = reject; }

    /// Reads a string value into out; p is at the opening quote.
    [[gnu::always_inline]] bool read_string(std::string& out) {
        const char* const after = read_string_at(p, out);
        if (!after) return false;
        p = after;
        return true;
    }

    /** read_string from `q`, not p, returning where the string ends (nullptr on an error,
        which p then points into). Out of line, and the cursor passes in a register: p, just
        stored by the caller, would be loaded again from memory, on the path of every value.
    */
    const char* read_string_at(const char* q, std::string& out);

    /** Reads a member name; p is at the opening quote. The view points into the
        input, or into a scratch buffer (valid until the next key) when the name
        has escapes; `from_scratch` says which.
    */
    bool read_key(std::string_view& key, bool& from_scratch) { return scan_string(p, scratch_, key, from_scratch); }

    /// Expects `c` after optional whitespace; `context` names what was being read.
    [[gnu::always_inline]] bool expect(char c, const char* context) {
        skip_whitespace();
        if (p != end && *p == c) {
            ++p;
            return true;
        }
        return fail_expected(c, context);
    }

    /** Reads a JSON number, checking its grammar, and gathers its value on the way: one pass
        over its digits.
    */
    bool scan_number(scanned_number& number) {
        switch (json_detail::scan_number(p, end, number)) {
        case number_syntax::valid: p = number.text.data() + number.text.size(); return true;
        case number_syntax::leading_zero: return fail_leading_zero(p);
        default: return fail_number(p);
        }
    }

    /// Skips one value of any kind, checking it fully (grammar, UTF-8, depth, duplicates).
    bool skip_value();

    // Error recording. Each returns false so that callers can `return fail_...(...)`.
    // Marked cold so that the compiler lays the hot path out as straight-line code.
    [[gnu::cold]] bool fail(std::string reason);
    [[gnu::cold]] bool fail_syntax(const char* what);
    [[gnu::cold]] bool fail_expected(char c, const char* context);
    /// "expected <expected>, got <a description of the value at p>".
    [[gnu::cold]] bool fail_type(std::string_view expected);
    [[gnu::cold]] bool fail_depth();
    [[gnu::cold]] bool fail_utf8();
    /// For the string whose text starts at `start`.
    [[gnu::cold]] bool fail_string_length(const char* start);
    [[gnu::cold]] bool fail_control_character();
    [[gnu::cold]] bool fail_number(const char* start);
    [[gnu::cold]] bool fail_leading_zero(const char* start);
    [[gnu::cold]] bool fail_duplicate(std::string_view key);
    [[gnu::cold]] bool fail_unknown(std::string_view key);
    /// Describes the value starting at p for messages: `string "x"`, `number 1.5`, `object`.
    std::string describe_value_here() const;

    /// Adds an enclosing path segment to the error being built; returns false.
    [[gnu::cold]] bool push_key(std::string_view key);
    [[gnu::cold]] bool push_index(std::size_t index);

    /// The finished error, with the JSON Pointer from the outermost segment inwards.
    json_error take_error();
    /// Forgets a recorded error (for trying variant alternatives).
    void clear_error() noexcept;
    /// Whether an error is recorded (not after collecting stopped at its limit).
    bool has_error() const noexcept { return !reason_.empty(); }

    /** Collect mode (from_json_errors): errors that leave the JSON readable (a wrong type,
        a broken constraint, a missing member) go to `sink`, up to `limit` of them, and
        reading goes on past the value. Syntax errors still end the read.
    */
    void collect_into(std::vector<json_error>& sink, std::size_t limit) noexcept {
        collected_ = &sink;
        collect_limit_ = limit;
    }
    bool collecting() const noexcept { return collected_ != nullptr; }
    /// Turns collect mode off (variant alternatives are tried whole) and back on.
    std::vector<json_error>* pause_collecting() noexcept { return std::exchange(collected_, nullptr); }
    void resume_collecting(std::vector<json_error>* sink) noexcept { collected_ = sink; }

    /** Where a container's reader found that a value failed: adds the value's segment to
        the error's path. In collect mode, records a readable error (the container opens at
        `container`) and moves past the value (at `value_start`, read at `depth`): returns
        true to go on. Otherwise returns false, as the push_ functions do.
    */
    [[gnu::cold]] bool step_over(std::string_view key, const char* container, const char* value_start,
                                 std::size_t depth);
    [[gnu::cold]] bool step_over(std::size_t index, const char* container, const char* value_start,
                                 std::size_t depth);
    [[gnu::cold]] bool step_over(path_segment segment, const char* container, const char* value_start,
                                 std::size_t depth);
    /// The error just failed at the container opening at `container`: in collect mode,
    /// records it (when readable) and returns true; otherwise returns false.
    [[gnu::cold]] bool record_error(const char* container);
    const std::string& reason() const noexcept { return reason_; }
    std::string relative_path() const;

    std::size_t offset() const noexcept { return static_cast<std::size_t>(p - begin_); }

private:
    /** Scans the string whose opening quote is at q, checking its UTF-8, control characters
        and length: `text` views the input, or `buffer` (which `in_buffer` says) when the
        string has escapes; q ends past the closing quote. The one scan under read_string and
        read_key. On an error, p is where it was found.
    */
    [[gnu::always_inline]] bool scan_string(const char*& q, std::string& buffer, std::string_view& text,
                                            bool& in_buffer) {
        const char* const start = ++q;
        for (;;) {
            bool at_quote;
            q = find_string_special(q, end, at_quote);
            if (at_quote) {
                if (static_cast<std::size_t>(q - start) > max_string_length_) return p = q, fail_string_length(start);
                text = std::string_view(start, static_cast<std::size_t>(q - start));
                in_buffer = false;
                ++q;
                return true;
            }
            p = q; // the slow paths below use p
            if (q == end) return fail_syntax("unterminated string");
            const auto c = static_cast<unsigned char>(*q);
            if (c >= 0x80) { // a run of them, as in CJK text, without a scan between each two
                if (!skip_utf8_run(p, end)) return fail_utf8();
                q = p;
                continue;
            }
            if (c == '\\') {
                std::size_t length;
                if (!unescape_string(start, buffer, length)) return false;
                if (length > max_string_length_) return fail_string_length(start);
                text = std::string_view(buffer.data(), length);
                in_buffer = true;
                q = p;
                return true;
            }
            return fail_control_character();
        }
    }

    /// Whether [q, end) starts with a line break, n - 1 spaces and a byte that is not white space.
    [[gnu::always_inline]] bool is_indentation(const char* q, std::size_t n) const noexcept {
#if defined(__SSE2__)
        if (end - q < 32) return false;
        const __m128i first = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
        const __m128i spaces = _mm_set1_epi8(' ');
        const __m128i line_break_then_spaces = _mm_insert_epi16(spaces, '\n' | (' ' << 8), 0);
        auto same = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(first, line_break_then_spaces)));
        if (n >= 16) { // deep: the second 16 bytes too
            const __m128i second = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16));
            same |= static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(second, spaces))) << 16;
        }
        const std::uint32_t run = (std::uint32_t{1} << n) - 1;
        return (same & run) == run && static_cast<unsigned char>(q[n]) > ' ';
#else
        (void)q, (void)n;
        return false;
#endif
    }

    /// skip_indentation's other case: skips the run, and expects it again at `level` when it
    /// is a line break and at most 30 spaces.
    void skip_new_indentation(std::size_t level) noexcept;

    /// Unescapes the string whose text starts at `start` (p is at its first backslash)
    /// into buffer[0, length), using buffer's size as room; p ends past the closing quote.
    bool unescape_string(const char* start, std::string& buffer, std::size_t& length);

    const char* begin_;
    std::size_t depth_ = 0;
    std::size_t max_depth_;
    std::size_t max_string_length_;
    bool reject_unknown_;
    std::string scratch_;   // unescaped member names
    std::string unescaped_; // unescaped string values, before they are copied out
    std::string reason_;
    std::size_t error_offset_ = json_error::npos;
    std::vector<path_segment> path_; // innermost first
    bool fatal_ = false;             // the recorded error leaves the JSON unreadable
    std::vector<json_error>* collected_ = nullptr;
    std::size_t collect_limit_ = 0;
    std::uint8_t indentation_[16] = {}; // skip_indentation's expected run at each level; 0: none
};

} // namespace forma::json_detail
