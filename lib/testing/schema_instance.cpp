// make_instance: a valid instance of a JSON Schema, for schema-driven model replies.
#include <forma/testing/schema_instance.hpp>

#include <forma/json/detail/constraints.hpp>
#include <forma/json/detail/reader.hpp>

#include "../json/json_text.hpp"
#include "../json/ecma_pattern.hpp"
#include "../text/ascii.hpp"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace forma::testing {
namespace {

namespace json = boost::json;

constexpr int shallow_depth = 3;  // past it, recursion takes its shortest way out
constexpr int hard_depth = 64;    // past it, the schema has no finite instance
// The most an instance may cost (one per value, plus the code points of its strings):
// schemas asking for more (a huge minItems, small counts that multiply) get a
// schema_error instead of exhausting time and memory.
constexpr std::size_t max_instance_cost = 1 << 18;
// The longest string generated from a pattern; past it a candidate is abandoned.
constexpr std::size_t max_generated_length = 4096;
// Prompt words tried against one pattern (each in four cases) before generated strings.
constexpr std::size_t max_words_per_pattern = 8;
// Boost.Regex bounds each search's steps (search_step_bound), but a step costs 10 to 60 ns
// and a pattern that backtracks badly spends its bound on every candidate. So a search whose
// bound passes the first limit is not made (the rest take at most some 60 ms in Release), a
// pattern is not searched again once a search was too complex, and searches stop once the
// bounds of those made pass the second limit.
constexpr std::size_t max_search_steps = std::size_t{1} << 21;
constexpr std::size_t max_pattern_steps = std::size_t{1} << 25;

// Assertion keywords this generator cannot honour: better a clear error than an
// instance a validator rejects.
constexpr std::string_view unsupported_keywords[] = {
    "oneOf", "allOf", "not", "if", "then", "else", "prefixItems", "contains", "uniqueItems",
    "patternProperties", "propertyNames", "minProperties", "maxProperties",
    "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
    "$dynamicRef", "minContains", "maxContains"};

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// ---- a small generator for ECMA-262 patterns ------------------------------------------

struct regex_unsupported {};

struct regex_node {
    std::string chars;                          // one of these characters, or
    std::vector<std::vector<regex_node>> alts;  // one of these sequences (a group)
    std::size_t min = 1, max = 1;
};

class regex_parser {
public:
    explicit regex_parser(std::string_view p) : p_(p) {}
    std::vector<std::vector<regex_node>> parse() {
        auto alts = alternation();
        if (i_ != p_.size()) throw regex_unsupported{};
        return alts;
    }

private:
    static std::string all_printable() {
        std::string s;
        for (char c = ' '; c <= '~'; ++c) s += c;
        return s;
    }
    static std::string class_escape(char e) {
        std::string s;
        for (char c = ' '; c <= '~'; ++c) {
            const bool digit = c >= '0' && c <= '9';
            const bool word = digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            if ((e == 'd' && digit) || (e == 'w' && word) || (e == 's' && c == ' ') ||
                (e == 'D' && !digit) || (e == 'W' && !word) || (e == 'S' && c != ' '))
                s += c;
        }
        return s;
    }
    bool more() const { return i_ < p_.size(); }

    std::vector<std::vector<regex_node>> alternation() {
        std::vector<std::vector<regex_node>> alts{sequence()};
        while (more() && p_[i_] == '|') {
            ++i_;
            alts.push_back(sequence());
        }
        return alts;
    }
    std::vector<regex_node> sequence() {
        std::vector<regex_node> seq;
        while (more() && p_[i_] != '|' && p_[i_] != ')') {
            regex_node n;
            if (!atom(n)) continue; // an anchor
            quantifier(n);
            seq.push_back(std::move(n));
        }
        return seq;
    }
    bool atom(regex_node& n) {
        const char c = p_[i_++];
        switch (c) {
        case '^': case '$': return false;
        case '.': n.chars = "abcxyz"; return true;
        case '(':
            if (more() && p_[i_] == '?') {
                if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') i_ += 2;
                else throw regex_unsupported{}; // lookaround, named groups
            }
            n.alts = alternation();
            if (!more() || p_[i_] != ')') throw regex_unsupported{};
            ++i_;
            return true;
        case '[': n.chars = char_class(); return true;
        case '\\': n.chars = escape(false); return true;
        case '*': case '+': case '?': case '{': case ')': throw regex_unsupported{};
        default: n.chars = std::string(1, c); return true;
        }
    }
    std::string escape(bool in_class) {
        if (!more()) throw regex_unsupported{};
        const char e = p_[i_++];
        if (std::string_view("dwsDWS").find(e) != std::string_view::npos) return class_escape(e);
        if (e == 'n') return "\n";
        if (e == 't') return "\t";
        if ((e >= '0' && e <= '9') || (!in_class && (e == 'b' || e == 'B')) || e == 'u' || e == 'x' ||
            e == 'p' || e == 'P' || e == 'k' || e == 'c')
            throw regex_unsupported{}; // backreferences, word boundaries, code escapes
        return std::string(1, e);
    }
    std::string char_class() {
        bool negated = false;
        if (more() && p_[i_] == '^') {
            negated = true;
            ++i_;
        }
        std::string set;
        bool first = true;
        while (more() && (p_[i_] != ']' || first)) {
            first = false;
            std::string item;
            if (p_[i_] == '\\') {
                ++i_;
                item = escape(true);
            } else {
                item = std::string(1, p_[i_++]);
            }
            if (item.size() == 1 && i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
                ++i_;
                char hi = p_[i_++];
                if (hi == '\\') throw regex_unsupported{};
                for (int c = static_cast<unsigned char>(item[0]); c <= static_cast<unsigned char>(hi); ++c)
                    set += static_cast<char>(c);
            } else {
                set += item;
            }
        }
        if (!more()) throw regex_unsupported{};
        ++i_; // ']'
        if (!negated) return set;
        std::string out;
        for (char c : all_printable())
            if (set.find(c) == std::string::npos) out += c;
        return out;
    }
    void quantifier(regex_node& n) {
        if (!more()) return;
        const char c = p_[i_];
        constexpr std::size_t many = std::numeric_limits<std::size_t>::max();
        if (c == '?') n.min = 0, n.max = 1;
        else if (c == '*') n.min = 0, n.max = many;
        else if (c == '+') n.min = 1, n.max = many;
        else if (c == '{') {
            const std::size_t close = p_.find('}', i_);
            if (close == std::string_view::npos) throw regex_unsupported{};
            const std::string body(p_.substr(i_ + 1, close - i_ - 1));
            unsigned long lo = 0, hi = 0;
            char comma = 0;
            const int got = std::sscanf(body.c_str(), "%lu%c%lu", &lo, &comma, &hi);
            if (got == 1) n.min = n.max = lo;
            else if (got == 2 && comma == ',') n.min = lo, n.max = many;
            else if (got == 3 && comma == ',') n.min = lo, n.max = hi;
            else throw regex_unsupported{};
            i_ = close;
        } else {
            return;
        }
        ++i_;
        if (more() && p_[i_] == '?') ++i_; // lazy: same language
    }

    std::string_view p_;
    std::size_t i_ = 0;
};

// `extra` is how many repetitions past the minimum an unbounded quantifier takes.
void generate(const std::vector<std::vector<regex_node>>& alts, std::size_t extra, std::uint64_t& rng,
              std::string& out) {
    const auto& seq = alts[splitmix64(rng) % alts.size()];
    for (const auto& n : seq) {
        const std::size_t span = n.max - n.min;
        std::size_t count = n.min + std::min(span, extra);
        for (std::size_t k = 0; k < count; ++k) {
            if (out.size() > max_generated_length) return; // too long to be a candidate
            if (!n.alts.empty()) generate(n.alts, extra, rng, out);
            else if (!n.chars.empty()) out += n.chars[splitmix64(rng) % n.chars.size()];
            else return; // an empty class matches nothing
        }
    }
}

// ---- the instance generator -----------------------------------------------------------

bool is_word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

using text_detail::to_lower;
using text_detail::to_upper;

// The first `n` code points of valid UTF-8 text.
std::string take_code_points(std::string_view s, std::size_t n) {
    std::size_t i = 0;
    for (std::size_t cp = 0; i < s.size() && cp < n; ++cp) {
        ++i;
        while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    }
    return std::string(s.substr(0, i));
}

double number_of(const json::value& v, std::string_view what) {
    if (v.is_int64()) return static_cast<double>(v.as_int64());
    if (v.is_uint64()) return static_cast<double>(v.as_uint64());
    if (v.is_double()) return v.as_double();
    throw schema_error("make_instance: \"" + std::string(what) + "\" must be a number, not " +
                       json::serialize(v));
}

std::size_t count_of(const json::object& s, std::string_view key, std::size_t fallback) {
    const auto* v = s.if_contains(key);
    if (!v) return fallback;
    const double d = number_of(*v, key);
    if (d < 0 || d != std::floor(d))
        throw schema_error("make_instance: \"" + std::string(key) + "\" must be a non-negative integer");
    constexpr double beyond_size_t = 18446744073709551616.0; // 2^64
    return d >= beyond_size_t ? std::numeric_limits<std::size_t>::max()
                              : static_cast<std::size_t>(d);
}

// `x` as a JSON integer where a 64-bit integer holds it, else as the double it is
// (still an integer to JSON Schema, which looks at the value, not the spelling).
json::value integral_number(double x) {
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
        return static_cast<std::int64_t>(x);
    if (x >= 0 && x < 18446744073709551616.0) return static_cast<std::uint64_t>(x);
    return x;
}

// The array index a JSON Pointer token names, if it is one (digits only, in range).
std::optional<std::size_t> array_index(std::string_view token) {
    std::size_t i = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), i);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size())
        return std::nullopt;
    return i;
}

// ---- what the prompt offers: phrases for strings, numbers for numbers -------------------

// Words that make no value on their own: a plain string is never one of them, and they end a phrase.
constexpr std::string_view stop_words[] = {
    "a", "an", "the", "and", "or", "but", "nor", "so", "yet", "of", "in", "on", "at", "to", "from", "for",
    "with", "by", "as", "into", "onto", "about", "over", "under", "after", "before", "between", "through",
    "during", "without", "within", "upon", "via", "per", "than", "then", "is", "are", "was", "were", "be",
    "been", "being", "am", "do", "does", "did", "has", "have", "had", "would", "shall", "should", "could",
    "might", "i", "me", "my", "you", "your", "he", "him", "his", "she", "her", "it", "its", "we", "us", "our",
    "they", "them", "their", "this", "that", "these", "those", "who", "whom", "whose", "which", "what",
    "when", "where", "why", "how", "there", "here", "not", "no", "yes", "if", "also", "just", "very", "too",
    "all", "any", "some", "each", "every", "both", "only", "please", "it's", "i'm", "he's", "she's",
    "that's", "there's", "let's", "don't"};

// Words a phrase may hold: capitalised ones (a name, "John Smith") or lowercase ones ("software engineer").
constexpr std::size_t max_capitalised_phrase = 4;
constexpr std::size_t max_lowercase_phrase = 3;

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// Whether a word starts with a capital letter: ASCII, or Latin-1's in UTF-8 (U+00C0 to U+00DE but U+00D7).
bool is_capitalised(std::string_view w) {
    if (w.empty()) return false;
    const auto c = static_cast<unsigned char>(w[0]);
    if (c >= 'A' && c <= 'Z') return true;
    if (c != 0xC3 || w.size() < 2) return false;
    const auto d = static_cast<unsigned char>(w[1]);
    return d >= 0x80 && d <= 0x9E && d != 0x97;
}

struct phrase {
    std::string text;
    std::size_t end = 0; // the offset in the prompt just past it
};

/* The phrases of `prompt`, in order: a run of capitalised words (at most four) or of lowercase
   words (at most three), with nothing but spaces or tabs between them, is one phrase ("John
   Smith", "software engineer"). Words are runs of letters, digits and UTF-8 sequences, joined
   through inner hyphens and apostrophes ("35-year-old", "O'Brien"). A word holding a digit
   ("35-year-old", "3rd") or a stop word ("is", "the") is no phrase and ends one. */
std::vector<phrase> phrases_of(std::string_view prompt) {
    struct token {
        std::string_view text;
        std::size_t offset = 0;
        bool eligible = false;
        bool capitalised = false;
        bool joined_to_next = false; // only spaces or tabs lie between it and the next token
    };
    std::vector<token> tokens;
    for (std::size_t i = 0; i < prompt.size();) {
        if (!is_word_byte(static_cast<unsigned char>(prompt[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < prompt.size()) {
            if (is_word_byte(static_cast<unsigned char>(prompt[j]))) ++j;
            else if ((prompt[j] == '-' || prompt[j] == '\'') && j + 1 < prompt.size() &&
                     is_word_byte(static_cast<unsigned char>(prompt[j + 1])))
                j += 2;
            else
                break;
        }
        token t{prompt.substr(i, j - i), i};
        const bool has_digit = std::any_of(t.text.begin(), t.text.end(), is_ascii_digit);
        const std::string lower = to_lower(std::string(t.text));
        const bool stop = std::find(std::begin(stop_words), std::end(stop_words), lower) != std::end(stop_words);
        t.eligible = !has_digit && !stop && json_detail::count_code_points(t.text) > 0;
        t.capitalised = is_capitalised(t.text);
        std::size_t k = j;
        while (k < prompt.size() && (prompt[k] == ' ' || prompt[k] == '\t')) ++k;
        t.joined_to_next = k > j && k < prompt.size() && is_word_byte(static_cast<unsigned char>(prompt[k]));
        tokens.push_back(t);
        i = j;
    }
    std::vector<phrase> phrases;
    for (std::size_t i = 0; i < tokens.size();) {
        if (!tokens[i].eligible) {
            ++i;
            continue;
        }
        const bool capitalised = tokens[i].capitalised;
        const std::size_t most = capitalised ? max_capitalised_phrase : max_lowercase_phrase;
        std::string text(tokens[i].text);
        std::size_t j = i + 1;
        for (; j < tokens.size() && j - i < most && tokens[j - 1].joined_to_next && tokens[j].eligible &&
               tokens[j].capitalised == capitalised;
             ++j)
            (text += ' ') += tokens[j].text;
        phrases.push_back({std::move(text), tokens[j - 1].offset + tokens[j - 1].text.size()});
        i = j;
    }
    return phrases;
}

// The prompt numbers a value may take: each number value looks at them all.
constexpr std::size_t max_prompt_numbers = 64;

/* The first max_prompt_numbers numbers `prompt` states, in order: runs of ASCII digits with an
   optional fraction ("2.5") and thousands separators ("1,000"), negative after a "-" that starts
   a word ("-3"), but not a run inside an identifier ("x86", "B12"). */
std::vector<double> numbers_of(std::string_view prompt) {
    std::vector<double> out;
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (std::size_t i = 0; i < prompt.size() && out.size() < max_prompt_numbers;) {
        if (!is_ascii_digit(prompt[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        std::string digits;
        while (j < prompt.size()) {
            if (is_ascii_digit(prompt[j])) {
                digits += prompt[j++];
            } else if (prompt[j] == ',' && j + 3 < prompt.size() && is_ascii_digit(prompt[j + 1]) &&
                       is_ascii_digit(prompt[j + 2]) && is_ascii_digit(prompt[j + 3]) &&
                       (j + 4 == prompt.size() || !is_ascii_digit(prompt[j + 4]))) {
                ++j; // a thousands separator
            } else {
                break;
            }
        }
        if (j + 1 < prompt.size() && prompt[j] == '.' && is_ascii_digit(prompt[j + 1])) {
            digits += prompt[j++];
            while (j < prompt.size() && is_ascii_digit(prompt[j])) digits += prompt[j++];
        }
        const bool in_identifier = i > 0 && (is_letter(prompt[i - 1]) || prompt[i - 1] == '_');
        const bool negative = i > 0 && prompt[i - 1] == '-' &&
                              (i == 1 || prompt[i - 2] == ' ' || prompt[i - 2] == '\t' || prompt[i - 2] == '\n' ||
                               prompt[i - 2] == '(');
        double x = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
        if (!in_identifier && ec == std::errc() && end == digits.data() + digits.size() && std::isfinite(x))
            out.push_back(negative ? -x : x);
        i = j;
    }
    return out;
}

class generator {
public:
    generator(const json::object& root, std::string_view prompt, std::uint64_t seed)
        : root_(root), rng_(seed) {
        std::vector<std::size_t> word_offsets;
        for (std::size_t i = 0; i < prompt.size();) {
            if (!is_word_byte(static_cast<unsigned char>(prompt[i]))) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < prompt.size() && is_word_byte(static_cast<unsigned char>(prompt[j]))) ++j;
            // A word of stray continuation bytes has no code points: it could not pad a string.
            const std::string_view word = prompt.substr(i, j - i);
            if (json_detail::count_code_points(word) > 0) {
                words_.emplace_back(word);
                word_offsets.push_back(i);
            }
            i = j;
        }
        if (words_.empty()) words_ = {"forma"}; // an empty prompt still gives strings
        next_word_ = static_cast<std::size_t>(seed % words_.size());
        // Each phrase with the word that follows it, which pads a string too short.
        for (phrase& p : phrases_of(prompt)) {
            const auto after = std::lower_bound(word_offsets.begin(), word_offsets.end(), p.end);
            const auto next = static_cast<std::size_t>(after - word_offsets.begin()) % words_.size();
            phrases_.push_back({std::move(p.text), next});
        }
        if (phrases_.empty()) // a prompt of stop words and numbers only: its words
            for (std::size_t i = 0; i < words_.size(); ++i) phrases_.push_back({words_[i], (i + 1) % words_.size()});
        next_phrase_ = static_cast<std::size_t>(seed % phrases_.size());
        numbers_ = numbers_of(prompt);
        number_used_.assign(numbers_.size(), false);
    }

    json::value make(const json::value& schema, int depth, const std::string& path) {
        spend(1, path);
        if (depth > hard_depth)
            throw schema_error("make_instance: the schema has no finite instance (recursion does not "
                               "end) at " + where(path));
        if (const bool* b = schema.if_bool()) {
            if (!*b) throw schema_error("make_instance: the schema `false` has no instance at " + where(path));
            return json::value(next_word());
        }
        const auto* s = schema.if_object();
        if (!s) throw schema_error("make_instance: a schema must be an object or a boolean at " + where(path));
        for (std::string_view k : unsupported_keywords)
            if (s->contains(k))
                throw schema_error("make_instance: unsupported keyword \"" + std::string(k) + "\" at " +
                                   where(path));
        if (const auto* ref = s->if_contains("$ref")) return make(resolve(*ref, path), depth, path);
        if (const auto* c = s->if_contains("const")) return *c;
        if (const auto* e = s->if_contains("enum")) {
            const auto* values = e->if_array();
            if (!values || values->empty())
                throw schema_error("make_instance: \"enum\" must be a non-empty array at " + where(path));
            return (*values)[pick(values->size())];
        }
        if (const auto* any = s->if_contains("anyOf")) {
            const auto* branches = any->if_array();
            if (!branches || branches->empty())
                throw schema_error("make_instance: \"anyOf\" must be a non-empty array at " + where(path));
            return make((*branches)[choose_branch(*branches, depth)], depth, path);
        }
        return make_typed(*s, type_of(*s, depth, path), depth, path);
    }

private:
    static std::string where(const std::string& path) { return path.empty() ? "(root)" : path; }

    // Counts `cost` towards max_instance_cost; throws once the instance would be too large.
    void spend(std::size_t cost, const std::string& path) {
        ensure_room(cost, path);
        spent_ += cost;
    }
    void ensure_room(std::size_t cost, const std::string& path) const {
        if (cost > max_instance_cost - spent_)
            throw schema_error("make_instance: the instance would be larger than " +
                               std::to_string(max_instance_cost) + " values and code points at " +
                               where(path));
    }

    std::size_t pick(std::size_t n) { return static_cast<std::size_t>(splitmix64(rng_) % n); }

    std::string next_word() {
        std::string w = words_[next_word_];
        next_word_ = (next_word_ + 1) % words_.size();
        return w;
    }

    // The next phrase; the word cursor moves past it, so that padding and the next
    // single-word string go on from there.
    std::string next_phrase() {
        const auto& [text, next_word] = phrases_[next_phrase_];
        next_phrase_ = (next_phrase_ + 1) % phrases_.size();
        next_word_ = next_word;
        return text;
    }

    // An index in [a, b] near the middle: within a twentieth of the span of it, by the seed.
    double near_middle(double a, double b) {
        const double mid = a + std::floor((b - a) / 2);
        const double w = std::min(std::floor((b - a) / 20), 1e6);
        const double x = mid - w + static_cast<double>(pick(static_cast<std::size_t>(2 * w) + 1));
        return std::clamp(x, a, b);
    }

    // The first number the prompt states that no other value took and that is valid here.
    std::optional<json::value> prompt_number(double lo, bool lo_open, double hi, bool hi_open, double step,
                                             bool integer) {
        for (std::size_t i = 0; i < numbers_.size(); ++i) {
            const double x = numbers_[i];
            if (number_used_[i] || (integer && std::floor(x) != x)) continue;
            if (lo_open ? x <= lo : x < lo) continue;
            if (hi_open ? x >= hi : x > hi) continue;
            if (step > 0 && std::floor(x / step) != x / step) continue;
            number_used_[i] = true;
            if (std::floor(x) == x) return integral_number(x);
            return json::value(x);
        }
        return std::nullopt;
    }

    const json::value& resolve(const json::value& ref, const std::string& path) {
        const auto* text = ref.if_string();
        if (!text || text->empty() || (*text)[0] != '#')
            throw schema_error("make_instance: only local \"$ref\" (\"#...\") is supported at " + where(path));
        std::string_view fragment(text->data() + 1, text->size() - 1);
        if (fragment.empty()) return root_value();
        if (fragment[0] != '/')
            throw schema_error("make_instance: \"$ref\": \"" + std::string(*text) +
                               "\" is not a JSON Pointer, at " + where(path));
        const json::value* node = &root_value();
        while (!fragment.empty()) {
            fragment.remove_prefix(1);
            const std::size_t slash = std::min(fragment.find('/'), fragment.size());
            std::string token; // ~1 is '/', ~0 is '~'
            for (std::size_t i = 0; i < slash; ++i) {
                const bool escape = fragment[i] == '~' && i + 1 < slash;
                token += escape ? (fragment[i + 1] == '1' ? '/' : '~') : fragment[i];
                i += escape ? 1 : 0;
            }
            fragment.remove_prefix(slash);
            const json::value* next = nullptr;
            if (const auto* o = node->if_object()) next = o->if_contains(token);
            else if (const auto* a = node->if_array())
                if (const auto i = array_index(token); i && *i < a->size()) next = &(*a)[*i];
            if (!next)
                throw schema_error("make_instance: \"$ref\": \"" + std::string(*text) +
                                   "\" does not resolve, at " + where(path));
            node = next;
        }
        return *node;
    }

    const json::value& root_value() {
        if (!root_copy_) root_copy_ = json::value(root_);
        return *root_copy_;
    }

    static bool is_null_schema(const json::value& v) {
        const auto* o = v.if_object();
        if (!o) return false;
        const auto* t = o->if_contains("type");
        return t && t->is_string() && t->as_string() == "null";
    }

    // Whether a schema mentions `$ref` anywhere (without following it): a cheap
    // stand-in for "may recurse".
    static bool mentions_ref(const json::value& v) {
        if (const auto* o = v.if_object()) {
            for (const auto& m : *o)
                if (m.key() == "$ref" || mentions_ref(m.value())) return true;
        } else if (const auto* a = v.if_array()) {
            for (const auto& e : *a)
                if (mentions_ref(e)) return true;
        }
        return false;
    }

    // One of `n` alternatives, by the seed; where some are null (a nullable value), a null one
    // only one time in four, so that optional values are mostly there, as a model fills them.
    template <class IsNull>
    std::size_t pick_alternative(std::size_t n, IsNull is_null) {
        std::vector<std::size_t> present;
        std::optional<std::size_t> null_index;
        for (std::size_t i = 0; i < n; ++i) {
            if (!is_null(i)) present.push_back(i);
            else if (!null_index) null_index = i;
        }
        if (!null_index || present.empty()) return pick(n);
        if (pick(4) == 0) return *null_index;
        return present[pick(present.size())];
    }

    std::size_t choose_branch(const json::array& branches, int depth) {
        if (depth < shallow_depth)
            return pick_alternative(branches.size(), [&](std::size_t i) { return is_null_schema(branches[i]); });
        // Deep enough: end the recursion with null, else with a branch that cannot recurse.
        for (std::size_t i = 0; i < branches.size(); ++i)
            if (is_null_schema(branches[i])) return i;
        for (std::size_t i = 0; i < branches.size(); ++i)
            if (!mentions_ref(branches[i])) return i;
        return 0;
    }

    std::string type_of(const json::object& s, int depth, const std::string& path) {
        const auto* t = s.if_contains("type");
        if (!t) {
            // Untyped: infer from the keywords present; {} accepts anything, a word will do.
            if (s.contains("properties") || s.contains("additionalProperties") || s.contains("required"))
                return "object";
            if (s.contains("items") || s.contains("minItems") || s.contains("maxItems")) return "array";
            if (s.contains("minimum") || s.contains("maximum") || s.contains("exclusiveMinimum") ||
                s.contains("exclusiveMaximum") || s.contains("multipleOf"))
                return "number";
            return "string";
        }
        if (const auto* name = t->if_string()) return std::string(*name);
        if (const auto* names = t->if_array(); names && !names->empty()) {
            for (const auto& n : *names)
                if (!n.is_string())
                    throw schema_error("make_instance: \"type\" lists a non-string at " + where(path));
            if (depth >= shallow_depth)
                for (const auto& n : *names)
                    if (n.as_string() == "null") return "null";
            const auto chosen = pick_alternative(names->size(), [&](std::size_t i) { return (*names)[i] == "null"; });
            return std::string((*names)[chosen].as_string());
        }
        throw schema_error("make_instance: \"type\" must be a string or a non-empty array at " + where(path));
    }

    json::value make_typed(const json::object& s, const std::string& type, int depth, const std::string& path) {
        if (type == "null") return nullptr;
        if (type == "boolean") return pick(2) == 1;
        if (type == "integer" || type == "number") return make_number(s, type == "integer", path);
        if (type == "string") return json::value(make_string(s, path));
        if (type == "array") return make_array(s, depth, path);
        if (type == "object") return make_object(s, depth, path);
        throw schema_error("make_instance: unknown type \"" + type + "\" at " + where(path));
    }

    json::value make_number(const json::object& s, bool integer, const std::string& path) {
        double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
        bool lo_open = false, hi_open = false;
        if (const auto* v = s.if_contains("minimum")) lo = number_of(*v, "minimum");
        if (const auto* v = s.if_contains("maximum")) hi = number_of(*v, "maximum");
        if (const auto* v = s.if_contains("exclusiveMinimum")) {
            const double x = number_of(*v, "exclusiveMinimum");
            if (x >= lo) lo = x, lo_open = true;
        }
        if (const auto* v = s.if_contains("exclusiveMaximum")) {
            const double x = number_of(*v, "exclusiveMaximum");
            if (x <= hi) hi = x, hi_open = true;
        }
        double step = 0;
        if (const auto* v = s.if_contains("multipleOf")) {
            step = number_of(*v, "multipleOf");
            if (!(step > 0)) throw schema_error("make_instance: \"multipleOf\" must be positive at " + where(path));
        }
        if (integer) step = step == 0 ? 1 : std::ceil(step) == step ? step : 0;
        if (integer && s.contains("multipleOf") && step == 0)
            throw schema_error("make_instance: an integer with a fractional \"multipleOf\" is not supported at " +
                               where(path));
        auto empty_range = [&] {
            return schema_error("make_instance: no " + std::string(integer ? "integer" : "number") +
                                " lies within the bounds at " + where(path));
        };
        // A number the prompt states, where one fits.
        if (auto stated = prompt_number(lo, lo_open, hi, hi_open, step, integer)) return std::move(*stated);
        // Else one near the middle of the range. An unbounded side makes the range a small one
        // (20 wide, or two steps of "multipleOf" if wider): [0, 20] where the bounds allow it,
        // else the 20 next to the bound.
        constexpr double inf = std::numeric_limits<double>::infinity();
        double window = std::max(20.0, 2 * step);
        if (!std::isfinite(window)) window = step;
        if (lo == -inf && hi == inf) {
            lo = 0, hi = window;
        } else if (lo == -inf) {
            if (hi <= 0) lo = hi - window;
            else if (hi > window) lo = 0, hi = window, hi_open = false;
            else lo = 0;
        } else if (hi == inf) {
            if (lo >= 0) hi = lo + window;
            else lo = 0, hi = window, lo_open = false;
        }
        if (step > 0) {
            // Multiples of `step` inside the range: k in [k_lo, k_hi].
            double k_lo = std::ceil(lo / step), k_hi = std::floor(hi / step);
            if (lo_open && k_lo * step <= lo) k_lo += 1;
            if (hi_open && k_hi * step >= hi) k_hi -= 1;
            if (k_lo > k_hi) throw empty_range();
            if (!std::isfinite(k_lo) || !std::isfinite(k_hi))
                throw schema_error("make_instance: the range is too wide for \"multipleOf\" at " +
                                   where(path));
            const double x = near_middle(k_lo, k_hi) * step;
            if (integer || std::floor(x) == x) return integral_number(x);
            return x;
        }
        if (lo > hi || (lo == hi && (lo_open || hi_open))) throw empty_range();
        // A number strictly inside an open range, with few decimals where the range allows.
        for (double denom : {1.0, 4.0, 100.0, 1e6}) {
            double a = std::ceil(lo * denom), b = std::floor(hi * denom);
            if (lo_open && a / denom <= lo) a += 1;
            if (hi_open && b / denom >= hi) b -= 1;
            if (a > b || !std::isfinite(a) || !std::isfinite(b)) continue;
            const double x = near_middle(a, b) / denom;
            if (std::floor(x) == x) return integral_number(x);
            return x;
        }
        // A range narrower than a millionth: its midpoint, if a double lies strictly inside.
        const double mid = lo + (hi - lo) / 2;
        if (!integer && (lo_open ? mid > lo : mid >= lo) && (hi_open ? mid < hi : mid <= hi)) return mid;
        throw empty_range();
    }

    std::string format_value(std::string_view format) {
        static constexpr std::string_view known[] = {"date-time", "date", "time", "duration", "email",
                                                     "hostname", "uri", "ipv4", "ipv6", "uuid"};
        if (std::find(std::begin(known), std::end(known), format) == std::end(known))
            return {}; // an annotation only: a plain word will do
        char buf[64];
        const auto r = splitmix64(rng_);
        const std::string word = to_lower(words_[next_word_]);
        std::string label;
        for (char c : word)
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) label += c;
        if (label.empty()) label = "user";
        next_word_ = (next_word_ + 1) % words_.size();
        const int month = static_cast<int>(r % 12) + 1, day = static_cast<int>((r >> 8) % 28) + 1;
        const int hour = static_cast<int>((r >> 16) % 24), minute = static_cast<int>((r >> 24) % 60);
        if (format == "date-time") {
            std::snprintf(buf, sizeof buf, "2024-%02d-%02dT%02d:%02d:00Z", month, day, hour, minute);
        } else if (format == "date") {
            std::snprintf(buf, sizeof buf, "2024-%02d-%02d", month, day);
        } else if (format == "time") {
            std::snprintf(buf, sizeof buf, "%02d:%02d:00Z", hour, minute);
        } else if (format == "duration") {
            std::snprintf(buf, sizeof buf, "P%dDT%dH", day, hour);
        } else if (format == "email") {
            return label + "@example.com";
        } else if (format == "hostname") {
            return label + ".example.com";
        } else if (format == "uri") {
            return "https://example.com/" + label;
        } else if (format == "ipv4") {
            std::snprintf(buf, sizeof buf, "192.0.2.%d", static_cast<int>(r % 254) + 1); // TEST-NET-1
        } else if (format == "ipv6") {
            std::snprintf(buf, sizeof buf, "2001:db8::%x", static_cast<unsigned>(r & 0xffff) + 1);
        } else if (format == "uuid") {
            const auto r2 = splitmix64(rng_);
            std::snprintf(buf, sizeof buf, "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(r >> 32),
                          static_cast<unsigned>((r >> 16) & 0xffff), static_cast<unsigned>(r & 0xfff),
                          static_cast<unsigned>(0x8000 | (r2 >> 48 & 0x3fff)),
                          static_cast<unsigned long long>(r2 & 0xffffffffffffULL));
        }
        return buf;
    }

    std::string make_string(const json::object& s, const std::string& path) {
        const std::size_t min_len = count_of(s, "minLength", 0);
        const std::size_t max_len = count_of(s, "maxLength", std::numeric_limits<std::size_t>::max());
        if (min_len > max_len)
            throw schema_error("make_instance: \"minLength\" is greater than \"maxLength\" at " + where(path));
        spend(min_len, path);
        if (const auto* f = s.if_contains("format"); f && f->is_string()) {
            std::string v = format_value(f->as_string());
            if (!v.empty()) return v;
        }
        pattern_state* pattern = nullptr;
        if (const auto* p = s.if_contains("pattern")) pattern = &pattern_of(*p, path);
        auto fits = [&](const std::string& v) {
            const std::size_t n = json_detail::count_code_points(v);
            return n >= min_len && n <= max_len && matches(*pattern, v, n);
        };
        // Pads with the following words, then cuts, to meet the length limits.
        auto fit_length = [&](std::string v) {
            std::size_t n = json_detail::count_code_points(v);
            for (std::size_t k = 0; n < min_len; ++k) {
                const std::string& word = words_[(next_word_ + k) % words_.size()];
                v += word;
                n += json_detail::count_code_points(word);
            }
            if (n > max_len) v = take_code_points(v, max_len);
            return v;
        };
        if (!pattern) return fit_length(next_phrase());
        const std::string first = next_word();

        for (std::size_t k = 0; k < std::min(words_.size(), max_words_per_pattern) && searchable(*pattern); ++k) {
            const std::string& w = k == 0 ? first : words_[(next_word_ + k - 1) % words_.size()];
            std::string capital = to_lower(w);
            if (!capital.empty()) capital[0] = to_upper(capital.substr(0, 1))[0];
            for (const std::string& v : {w, to_lower(w), to_upper(w), capital}) {
                std::string c = fit_length(v);
                if (fits(c)) return c;
            }
        }
        try {
            const auto tree = regex_parser(pattern->compiled.source).parse();
            for (std::size_t extra : {1, 0, 2, 3, 5, 8, 13, 21, 34, 64})
                for (int attempt = 0; attempt < 4 && searchable(*pattern); ++attempt) {
                    std::string v;
                    generate(tree, extra, rng_, v);
                    if (fits(v)) return v;
                }
        } catch (const regex_unsupported&) {
            // Backreferences or lookaround: no generated candidate; fall through.
        }
        // Documented limit: the shortest prompt word, which may break the pattern.
        std::string shortest = words_.front();
        for (const auto& w : words_)
            if (json_detail::count_code_points(w) < json_detail::count_code_points(shortest)) shortest = w;
        return fit_length(shortest);
    }

    // A pattern compiled once per instance, with what its searches found.
    struct pattern_state {
        json_detail::compiled_pattern compiled;
        bool too_complex = false;                        // then it is not searched again
        std::unordered_map<std::string, bool> verdicts; // candidates searched, and whether they match
    };

    pattern_state& pattern_of(const json::value& pattern, const std::string& path) {
        const auto* text = pattern.if_string();
        if (!text) throw schema_error("make_instance: \"pattern\" must be a string at " + where(path));
        const std::string source(*text);
        if (auto it = patterns_.find(source); it != patterns_.end()) return it->second;
        try {
            return patterns_.emplace(source, pattern_state{json_detail::compile_pattern(source), false, {}}).first->second;
        } catch (const boost::regex_error& e) {
            throw schema_error("make_instance: invalid pattern " + json_detail::quoted_excerpt(source, 64) +
                               " at " + where(path) + ": " + e.what());
        }
    }

    bool searchable(const pattern_state& p) const {
        return !p.too_complex && pattern_steps_left_ >= json_detail::search_step_bound(p.compiled, 1);
    }

    // Whether `text` matches, within the search limits (see max_pattern_steps).
    // Candidates are built byte by byte, so one may not be UTF-8: it is no string to return.
    bool matches(pattern_state& p, const std::string& text, std::size_t code_points) {
        if (auto it = p.verdicts.find(text); it != p.verdicts.end()) return it->second;
        const std::size_t steps = json_detail::search_step_bound(p.compiled, code_points);
        if (!searchable(p) || steps > max_search_steps || steps > pattern_steps_left_ ||
            json_detail::invalid_utf8_offset(text) != std::string_view::npos)
            return false;
        pattern_steps_left_ -= steps;
        const json_detail::match_result found = json_detail::search(p.compiled, text);
        p.too_complex = found == json_detail::match_result::too_complex;
        return p.verdicts[text] = found == json_detail::match_result::yes;
    }

    json::value make_array(const json::object& s, int depth, const std::string& path) {
        const std::size_t min_items = count_of(s, "minItems", 0);
        const std::size_t max_items = count_of(s, "maxItems", std::numeric_limits<std::size_t>::max());
        if (min_items > max_items)
            throw schema_error("make_instance: \"minItems\" is greater than \"maxItems\" at " + where(path));
        std::size_t n = min_items;
        ensure_room(n, path);
        if (depth < shallow_depth && n == 0) n = std::min<std::size_t>(1 + pick(2), max_items);
        static const json::value any_schema = json::object{};
        const json::value* items = s.if_contains("items");
        if (items && items->is_bool() && !items->as_bool()) {
            if (min_items > 0)
                throw schema_error("make_instance: \"items\": false with \"minItems\" > 0 at " + where(path));
            n = 0;
        }
        json::array out;
        for (std::size_t i = 0; i < n; ++i)
            out.push_back(make(items ? *items : any_schema, depth + 1, path + "/" + std::to_string(i)));
        return out;
    }

    json::value make_object(const json::object& s, int depth, const std::string& path) {
        static const json::value any_schema = json::object{};
        const json::object* properties = nullptr;
        if (const auto* p = s.if_contains("properties")) {
            properties = p->if_object();
            if (!properties) throw schema_error("make_instance: \"properties\" must be an object at " + where(path));
        }
        std::vector<std::string_view> required;
        if (const auto* r = s.if_contains("required")) {
            const auto* names = r->if_array();
            if (!names) throw schema_error("make_instance: \"required\" must be an array at " + where(path));
            for (const auto& n : *names) {
                if (!n.is_string()) throw schema_error("make_instance: \"required\" lists a non-string at " + where(path));
                required.emplace_back(n.as_string());
            }
        }
        auto is_required = [&](std::string_view k) {
            return std::find(required.begin(), required.end(), k) != required.end();
        };
        const json::value* additional = s.if_contains("additionalProperties");
        const bool closed = additional && additional->is_bool() && !additional->as_bool();

        json::object out;
        if (properties)
            for (const auto& m : *properties) {
                // Deep enough, optional members are left out: one way recursion ends.
                if (depth >= shallow_depth && !is_required(m.key())) continue;
                out[m.key()] = make(m.value(), depth + 1, path + "/" + json_detail::pointer_token(m.key()));
            }
        for (std::string_view k : required) {
            if (out.contains(k)) continue;
            if (closed)
                throw schema_error("make_instance: \"" + std::string(k) +
                                   "\" is required but not allowed by the schema at " + where(path));
            out[k] = make(additional ? *additional : any_schema, depth + 1, path + "/" + json_detail::pointer_token(k));
        }
        // A map (additionalProperties as a schema, no properties): 1 or 2 entries keyed by words.
        if (additional && additional->is_object() && !properties && depth < shallow_depth) {
            const std::size_t n = 1 + pick(2);
            for (std::size_t i = 0; i < n; ++i) {
                std::string key = next_word();
                for (int suffix = 2; out.contains(key); ++suffix) key = words_[0] + "_" + std::to_string(suffix);
                out[key] = make(*additional, depth + 1, path + "/" + json_detail::pointer_token(key));
            }
        }
        return out;
    }

    const json::object& root_;
    std::optional<json::value> root_copy_; // `$ref` pointers resolve against a value
    std::vector<std::string> words_;
    std::size_t next_word_ = 0;
    std::vector<std::pair<std::string, std::size_t>> phrases_; // see phrases_of, and the word after each
    std::size_t next_phrase_ = 0;
    std::vector<double> numbers_; // see numbers_of
    std::vector<bool> number_used_;
    std::uint64_t rng_;
    std::size_t spent_ = 0; // see spend()
    std::unordered_map<std::string, pattern_state> patterns_; // by source
    std::size_t pattern_steps_left_ = max_pattern_steps;      // see matches()
};

} // namespace

json::value make_instance(const json::object& schema, std::string_view prompt, std::uint64_t seed) {
    generator g(schema, prompt, seed);
    return g.make(json::value(schema), 0, "");
}

} // namespace forma::testing
