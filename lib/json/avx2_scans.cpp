// The reader's and writer's scans 32 bytes at a time where the CPU has AVX2 (chosen at run time:
// the build targets baseline x86-64): white space between values, and runs of non-ASCII text in
// strings, validated with Keiser and Lemire's algorithm ("Validating UTF-8 in less than one
// instruction per byte", 2021): three table lookups on the nibbles of each byte and of the byte
// before it name every error two bytes can show, and a saturating subtraction checks the third
// and fourth bytes of long sequences.

#include <forma/json/detail/reader.hpp>

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FORMA_SCANS_AVX2 1
#include <immintrin.h>
#endif

namespace forma::json_detail {

bool avx2_scans_enabled = true;

#if defined(FORMA_SCANS_AVX2)
namespace {

#define FORMA_AVX2 __attribute__((target("avx2")))

// What each pair of bytes can be wrong with, one bit per error.
constexpr std::uint8_t too_short = 1 << 0;   // a lead byte, then ASCII or another lead
constexpr std::uint8_t too_long = 1 << 1;    // ASCII, then a continuation byte
constexpr std::uint8_t overlong_3 = 1 << 2;  // E0 80..9F
constexpr std::uint8_t too_large = 1 << 3;   // F4 90..BF, F5..FF
constexpr std::uint8_t surrogate = 1 << 4;   // ED A0..BF
constexpr std::uint8_t overlong_2 = 1 << 5;  // C0, C1
constexpr std::uint8_t too_large_1000 = 1 << 6; // F5..FF 80..8F, whose second byte's entry
constexpr std::uint8_t overlong_4 = 1 << 6;     // F0 80..8F shares: the first byte's tells them apart
constexpr std::uint8_t two_continuations = 1 << 7;
constexpr std::uint8_t carry = too_short | too_long | two_continuations; // the first byte's high nibble decides

// A 16-entry table in both 128-bit lanes, as _mm256_shuffle_epi8 looks up.
template <std::uint8_t... Entries>
FORMA_AVX2 __m256i lanes() {
    static_assert(sizeof...(Entries) == 16);
    return _mm256_setr_epi8(static_cast<char>(Entries)..., static_cast<char>(Entries)...);
}

FORMA_AVX2 __m256i high_nibbles(__m256i v) { return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F)); }

// `input` moved N bytes later, the last N bytes of `previous` in front.
template <int N>
FORMA_AVX2 __m256i preceding(__m256i input, __m256i previous) {
    return _mm256_alignr_epi8(input, _mm256_permute2x128_si256(previous, input, 0x21), 16 - N);
}

// Nonzero bytes where `input`, after `previous`, is not valid UTF-8.
FORMA_AVX2 __m256i utf8_errors(__m256i input, __m256i previous) {
    const __m256i before = preceding<1>(input, previous);
    const __m256i first_high = _mm256_shuffle_epi8(
        lanes<too_long, too_long, too_long, too_long, too_long, too_long, too_long, too_long,             // 0___
              two_continuations, two_continuations, two_continuations, two_continuations,               // 10__
              too_short | overlong_2, too_short, too_short | overlong_3 | surrogate,                    // C, D, E
              too_short | too_large | too_large_1000 | overlong_4>(),                                   // F
        high_nibbles(before));
    const __m256i first_low = _mm256_shuffle_epi8(
        lanes<carry | overlong_3 | overlong_2 | overlong_4, carry | overlong_2, carry, carry,            // _0, _1, _2, _3
              carry | too_large, carry | too_large | too_large_1000, carry | too_large | too_large_1000, // _4, _5, _6
              carry | too_large | too_large_1000, carry | too_large | too_large_1000,                   // _7, _8
              carry | too_large | too_large_1000, carry | too_large | too_large_1000,                   // _9, _A
              carry | too_large | too_large_1000, carry | too_large | too_large_1000,                   // _B, _C
              carry | too_large | too_large_1000 | surrogate,                                            // _D
              carry | too_large | too_large_1000, carry | too_large | too_large_1000>(),                // _E, _F
        _mm256_and_si256(before, _mm256_set1_epi8(0x0F)));
    constexpr std::uint8_t continuation_8 = too_long | overlong_2 | two_continuations | overlong_3 | too_large_1000 | overlong_4;
    constexpr std::uint8_t continuation_9 = too_long | overlong_2 | two_continuations | overlong_3 | too_large;
    constexpr std::uint8_t continuation_ab = too_long | overlong_2 | two_continuations | surrogate | too_large;
    const __m256i second_high = _mm256_shuffle_epi8(
        lanes<too_short, too_short, too_short, too_short, too_short, too_short, too_short, too_short,     // 0___
              continuation_8, continuation_9, continuation_ab, continuation_ab,                         // 8, 9, A, B
              too_short, too_short, too_short, too_short>(),                                             // 11__
        high_nibbles(input));
    const __m256i two_byte_errors = _mm256_and_si256(_mm256_and_si256(first_high, first_low), second_high);
    // The third byte of E_ and F_ sequences and the fourth of F_ ones must be continuations:
    // there the two-byte check saw "two continuations", its 0x80 bit, which this cancels.
    const __m256i third = _mm256_subs_epu8(preceding<2>(input, previous), _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
    const __m256i fourth = _mm256_subs_epu8(preceding<3>(input, previous), _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
    return _mm256_xor_si256(must_continue, two_byte_errors);
}

// From p (after ASCII, or at a sequence's start), the first '"', '\\' or control character, or
// where a sequence starts short of the last 32 bytes; everything before it valid UTF-8. nullptr
// when it is not; p when fewer than 32 bytes are left.
FORMA_AVX2 const char* skip_utf8_text_avx2(const char* p, const char* end) noexcept {
    const char* const start = p;
    const __m256i index = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                           22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    __m256i previous = _mm256_setzero_si256(); // p follows ASCII, or starts the text
    __m256i errors = _mm256_setzero_si256();
    for (; end - p >= 32; p += 32) {
        __m256i input = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        const __m256i control = _mm256_cmpeq_epi8(_mm256_max_epu8(input, _mm256_set1_epi8(0x1F)), _mm256_set1_epi8(0x1F));
        const __m256i special = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(input, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(input, _mm256_set1_epi8('\\'))),
            control);
        if (const auto mask = static_cast<std::uint32_t>(_mm256_movemask_epi8(special))) {
            // The text ends at byte k: what follows counts as ASCII, so a sequence cut there is an error.
            const int k = __builtin_ctz(mask);
            input = _mm256_and_si256(input, _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(k)), index));
            errors = _mm256_or_si256(errors, utf8_errors(input, previous));
            return _mm256_testz_si256(errors, errors) ? p + k : nullptr;
        }
        errors = _mm256_or_si256(errors, utf8_errors(input, previous));
        previous = input;
    }
    if (!_mm256_testz_si256(errors, errors)) return nullptr;
    // Stop where a sequence starts, not inside one that the last block may have cut.
    while (p > start && (static_cast<unsigned char>(p[-1]) & 0xC0) == 0x80) --p;
    if (p > start && static_cast<unsigned char>(p[-1]) >= 0xC0) --p;
    return p;
}

// The first byte from q that is not JSON white space, or end.
FORMA_AVX2 const char* skip_blank_avx2(const char* q, const char* end) noexcept {
    // A byte is white space when it equals the entry its low nibble picks: ' ' at 0, '\t' at 9,
    // '\n' at 10, '\r' at 13; 0 elsewhere, which no byte with that low nibble equals.
    const __m256i blanks = lanes<' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0>();
    for (; end - q >= 32; q += 32) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
        const auto blank = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(blanks, v), v)));
        if (blank != 0xFFFFFFFFu) return q + __builtin_ctz(~blank);
    }
    while (q != end && is_blank(*q)) ++q;
    return q;
}

#undef FORMA_AVX2

const bool has_avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}();

} // namespace
#endif

const char* skip_blank(const char* q, const char* end) noexcept {
#if defined(FORMA_SCANS_AVX2)
    if (has_avx2 && avx2_scans_enabled) return skip_blank_avx2(q, end);
#endif
    return skip_blank_sse2(q, end);
}

bool skip_utf8_run(const char*& p, const char* end) noexcept {
#if defined(FORMA_SCANS_AVX2)
    // On to the end of the text (the next '"', '\\' or control character), not of the run: a
    // string's later runs (é, Привет in Latin text, or CJK) then need no stop and call each.
    if (has_avx2 && avx2_scans_enabled)
        if (const char* stop = skip_utf8_text_avx2(p, end); stop && stop != p) {
            p = stop;
            return true;
        }
    // Not valid (nullptr): checked again one sequence at a time, to say where.
#endif
    do {
        const int n = utf8_sequence_length(p, end);
        if (n == 0) return false;
        p += n;
    } while (p != end && static_cast<unsigned char>(*p) >= 0x80);
    return true;
}

} // namespace forma::json_detail
