// make_instance: a valid instance of a JSON Schema, for schema-driven model replies.
#include <forma/testing/schema_instance.hpp>

#include "pattern_strings.hpp"
#include "prompt_phrases.hpp"
#include "splitmix64.hpp"

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
using detail::splitmix64;

constexpr int shallow_depth = 3;  // past it, recursion takes its shortest way out
constexpr int hard_depth = 64;    // past it, the schema has no finite instance
// The most an instance may cost (one per value, plus the code points of its strings):
// schemas asking for more (a huge minItems, small counts that multiply) get a
// schema_error instead of exhausting time and memory.
constexpr std::size_t max_instance_cost = 1 << 18;
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

class generator {
public:
    generator(const json::object& root, std::string_view prompt, std::uint64_t seed)
        : root_(root), rng_(seed) {
        detail::prompt_values values = detail::read_prompt(prompt);
        words_ = std::move(values.words);
        phrases_ = std::move(values.phrases);
        numbers_ = std::move(values.numbers);
        next_word_ = static_cast<std::size_t>(seed % words_.size());
        next_phrase_ = static_cast<std::size_t>(seed % phrases_.size());
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
        // Backreferences and lookaround are not generated: then no generated candidate.
        if (const auto generatable = detail::read_pattern(pattern->compiled.source))
            for (std::size_t extra : {1, 0, 2, 3, 5, 8, 13, 21, 34, 64})
                for (int attempt = 0; attempt < 4 && searchable(*pattern); ++attempt) {
                    std::string v = detail::pattern_string(*generatable, extra, rng_);
                    if (fits(v)) return v;
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
    std::vector<detail::prompt_phrase> phrases_;
    std::size_t next_phrase_ = 0;
    std::vector<double> numbers_; // see detail::prompt_values
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
