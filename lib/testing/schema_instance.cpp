// make_instance: a valid instance of a JSON Schema, for schema-driven model replies. It walks
// the schema as compiled for schema_validator, so that the two read every keyword alike.
#include <forma/testing/schema_instance.hpp>

#include "pattern_strings.hpp"
#include "prompt_phrases.hpp"
#include "splitmix64.hpp"

#include "../json/compiled_schema.hpp"
#include "../json/ecma_pattern.hpp"
#include "../json/json_text.hpp"
#include "../text/ascii.hpp"

#include <forma/json/detail/constraints.hpp>

#include <boost/json/array.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace forma::testing {
namespace {

namespace json = boost::json;
using detail::splitmix64;
using json_detail::node_id;
using json_detail::schema_node;
using text_detail::to_lower;
using text_detail::to_upper;

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

// The types of a `type` list in the order its alternatives are drawn.
constexpr unsigned type_bits[] = {json_detail::type_null,   json_detail::type_boolean,
                                  json_detail::type_object, json_detail::type_array,
                                  json_detail::type_number, json_detail::type_string,
                                  json_detail::type_integer};

// The first assertion keyword of `n` this generator cannot honour: better a clear error than an
// instance a validator rejects. (The compiler refuses unevaluated* and $dynamicRef itself.)
std::optional<std::string_view> unsupported_keyword(const schema_node& n) {
    const std::pair<std::string_view, bool> keywords[] = {
        {"oneOf", !n.one_of.empty()},
        {"allOf", !n.all_of.empty()},
        {"not", n.not_schema.has_value()},
        {"if", n.if_schema.has_value()},
        {"then", n.then_schema.has_value()},
        {"else", n.else_schema.has_value()},
        {"prefixItems", !n.prefix_items.empty()},
        {"contains", n.contains.has_value()},
        {"uniqueItems", n.unique_items},
        {"patternProperties", !n.pattern_properties.empty()},
        {"propertyNames", n.property_names.has_value()},
        {"minProperties", n.min_properties.has_value()},
        {"maxProperties", n.max_properties.has_value()},
        {"dependentRequired", !n.dependent_required.empty()},
        {"dependentSchemas", !n.dependent_schemas.empty()},
        {"minContains", n.min_contains.has_value()},
        {"maxContains", n.max_contains.has_value()}};
    for (const auto& [keyword, present] : keywords)
        if (present) return keyword;
    return std::nullopt;
}

// `{}`: what an array without `items` holds, and an object's members that no schema names.
const schema_node& any_schema() {
    static const schema_node node;
    return node;
}

// The schema as schema_validator reads it. Its refusals (a malformed or unknown keyword, a
// `$ref` that does not resolve) keep make_instance's prefix.
json_detail::compiled_schema compile(const json::object& schema) {
    try {
        return json_detail::compiled_schema(json::value(schema), {});
    } catch (const schema_error& e) {
        throw schema_error(std::string("make_instance: ") + e.what());
    }
}

// The first `n` code points of valid UTF-8 text.
std::string take_code_points(std::string_view s, std::size_t n) {
    std::size_t i = 0;
    for (std::size_t cp = 0; i < s.size() && cp < n; ++cp) {
        ++i;
        while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
    }
    return std::string(s.substr(0, i));
}

// `x` as a JSON integer where a 64-bit integer holds it, else as the double it is
// (still an integer to JSON Schema, which looks at the value, not the spelling).
json::value integral_number(double x) {
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0)
        return static_cast<std::int64_t>(x);
    if (x >= 0 && x < 18446744073709551616.0) return static_cast<std::uint64_t>(x);
    return x;
}

class generator {
public:
    generator(const json::object& schema, std::string_view prompt, std::uint64_t seed)
        : schema_(compile(schema)), rng_(seed) {
        detail::prompt_values values = detail::read_prompt(prompt);
        words_ = std::move(values.words);
        phrases_ = std::move(values.phrases);
        numbers_ = std::move(values.numbers);
        next_word_ = static_cast<std::size_t>(seed % words_.size());
        next_phrase_ = static_cast<std::size_t>(seed % phrases_.size());
        number_used_.assign(numbers_.size(), false);
    }

    json::value make_root() { return make(node(schema_.root()), 0, ""); }

private:
    json::value make(const schema_node& n, int depth, const std::string& path) {
        spend(1, path);
        if (depth > hard_depth)
            throw schema_error("make_instance: the schema has no finite instance (recursion does not "
                               "end) at " + where(path));
        if (n.constant_verdict) {
            if (!*n.constant_verdict)
                throw schema_error("make_instance: the schema `false` has no instance at " + where(path));
            return json::value(next_word());
        }
        if (const auto keyword = unsupported_keyword(n))
            throw schema_error("make_instance: unsupported keyword \"" + std::string(*keyword) + "\" at " +
                               where(path));
        if (n.ref) return make(node(*n.ref), depth, path);
        if (n.const_value) return *n.const_value;
        if (n.enum_values) {
            if (n.enum_values->empty())
                throw schema_error("make_instance: \"enum\" must be a non-empty array at " + where(path));
            return (*n.enum_values)[pick(n.enum_values->size())];
        }
        if (!n.any_of.empty()) return make(node(n.any_of[choose_branch(n.any_of, depth)]), depth, path);
        return make_typed(n, type_of(n, depth), depth, path);
    }

    const schema_node& node(node_id id) const { return schema_.node(id); }

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

    // Whether a `$ref` lies in the subschema (not following it): a cheap stand-in for "may recurse".
    bool mentions_ref(const schema_node& n) {
        if (!ref_locations_) {
            ref_locations_.emplace(); // each `$ref`'s location and every location enclosing it
            for (node_id id = 0; id < schema_.size(); ++id) {
                if (!node(id).ref) continue;
                std::string_view at = node(id).location;
                for (;;) {
                    ref_locations_->emplace(at);
                    if (at.empty()) break;
                    at = at.substr(0, at.rfind('/'));
                }
            }
        }
        return ref_locations_->contains(n.location);
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

    std::size_t choose_branch(const std::vector<node_id>& branches, int depth) {
        auto is_null = [&](std::size_t i) { return node(branches[i]).types == json_detail::type_null; };
        if (depth < shallow_depth) return pick_alternative(branches.size(), is_null);
        // Deep enough: end the recursion with null, else with a branch that cannot recurse.
        for (std::size_t i = 0; i < branches.size(); ++i)
            if (is_null(i)) return i;
        for (std::size_t i = 0; i < branches.size(); ++i)
            if (!mentions_ref(node(branches[i]))) return i;
        return 0;
    }

    // One of json_detail's type bits.
    unsigned type_of(const schema_node& n, int depth) {
        if (n.types == 0) {
            // Untyped: inferred from the keywords present; {} accepts anything, a word will do.
            if (!n.properties.empty() || n.additional_properties || !n.required.empty())
                return json_detail::type_object;
            if (n.items || n.min_items || n.max_items) return json_detail::type_array;
            if (n.minimum || n.maximum || n.exclusive_minimum || n.exclusive_maximum || n.multiple_of)
                return json_detail::type_number;
            return json_detail::type_string;
        }
        std::vector<unsigned> listed;
        for (unsigned bit : type_bits)
            if (n.types & bit) listed.push_back(bit);
        if (listed.size() == 1) return listed.front();
        if (depth >= shallow_depth && (n.types & json_detail::type_null)) return json_detail::type_null;
        return listed[pick_alternative(listed.size(),
                                       [&](std::size_t i) { return listed[i] == json_detail::type_null; })];
    }

    json::value make_typed(const schema_node& n, unsigned type, int depth, const std::string& path) {
        switch (type) {
        case json_detail::type_null: return nullptr;
        case json_detail::type_boolean: return pick(2) == 1;
        case json_detail::type_integer: return make_number(n, true, path);
        case json_detail::type_number: return make_number(n, false, path);
        case json_detail::type_string: return json::value(make_string(n, path));
        case json_detail::type_array: return make_array(n, depth, path);
        default: return make_object(n, depth, path);
        }
    }

    json::value make_number(const schema_node& n, bool integer, const std::string& path) {
        // The compiler checked that these are numbers, and that "multipleOf" is above 0.
        double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
        bool lo_open = false, hi_open = false;
        if (n.minimum) lo = n.minimum->to_number<double>();
        if (n.maximum) hi = n.maximum->to_number<double>();
        if (n.exclusive_minimum) {
            const double x = n.exclusive_minimum->to_number<double>();
            if (x >= lo) lo = x, lo_open = true;
        }
        if (n.exclusive_maximum) {
            const double x = n.exclusive_maximum->to_number<double>();
            if (x <= hi) hi = x, hi_open = true;
        }
        double step = n.multiple_of ? n.multiple_of->to_number<double>() : 0;
        if (integer) step = step == 0 ? 1 : std::ceil(step) == step ? step : 0;
        if (integer && n.multiple_of && step == 0)
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

    std::string make_string(const schema_node& n, const std::string& path) {
        const std::size_t min_len = n.min_length.value_or(0);
        const std::size_t max_len = n.max_length.value_or(std::numeric_limits<std::size_t>::max());
        if (min_len > max_len)
            throw schema_error("make_instance: \"minLength\" is greater than \"maxLength\" at " + where(path));
        spend(min_len, path);
        if (!n.format.empty()) {
            std::string v = format_value(n.format);
            if (!v.empty()) return v;
        }
        pattern_state* pattern = n.pattern ? &pattern_of(*n.pattern) : nullptr;
        auto fits = [&](const std::string& v) {
            const std::size_t count = json_detail::count_code_points(v);
            return count >= min_len && count <= max_len && matches(*pattern, v, count);
        };
        // Pads with the following words, then cuts, to meet the length limits.
        auto fit_length = [&](std::string v) {
            std::size_t count = json_detail::count_code_points(v);
            for (std::size_t k = 0; count < min_len; ++k) {
                const std::string& word = words_[(next_word_ + k) % words_.size()];
                v += word;
                count += json_detail::count_code_points(word);
            }
            if (count > max_len) v = take_code_points(v, max_len);
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
        if (const auto generatable = detail::read_pattern(pattern->compiled->source))
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

    // A pattern's searches in this instance: strings sharing a pattern share them.
    struct pattern_state {
        const json_detail::compiled_pattern* compiled;
        bool too_complex = false;                        // then it is not searched again
        std::unordered_map<std::string, bool> verdicts; // candidates searched, and whether they match
    };

    pattern_state& pattern_of(const json_detail::compiled_pattern& pattern) {
        auto it = patterns_.find(pattern.source);
        if (it == patterns_.end())
            it = patterns_.emplace(pattern.source, pattern_state{&pattern, false, {}}).first;
        return it->second;
    }

    bool searchable(const pattern_state& p) const {
        return !p.too_complex && pattern_steps_left_ >= json_detail::search_step_bound(*p.compiled, 1);
    }

    // Whether `text` matches, within the search limits (see max_pattern_steps).
    // Candidates are built byte by byte, so one may not be UTF-8: it is no string to return.
    bool matches(pattern_state& p, const std::string& text, std::size_t code_points) {
        if (auto it = p.verdicts.find(text); it != p.verdicts.end()) return it->second;
        const std::size_t steps = json_detail::search_step_bound(*p.compiled, code_points);
        if (!searchable(p) || steps > max_search_steps || steps > pattern_steps_left_ ||
            json_detail::invalid_utf8_offset(text) != std::string_view::npos)
            return false;
        pattern_steps_left_ -= steps;
        const json_detail::match_result found = json_detail::search(*p.compiled, text);
        p.too_complex = found == json_detail::match_result::too_complex;
        return p.verdicts[text] = found == json_detail::match_result::yes;
    }

    json::value make_array(const schema_node& n, int depth, const std::string& path) {
        const std::size_t min_items = n.min_items.value_or(0);
        const std::size_t max_items = n.max_items.value_or(std::numeric_limits<std::size_t>::max());
        if (min_items > max_items)
            throw schema_error("make_instance: \"minItems\" is greater than \"maxItems\" at " + where(path));
        std::size_t count = min_items;
        ensure_room(count, path);
        if (depth < shallow_depth && count == 0) count = std::min<std::size_t>(1 + pick(2), max_items);
        const schema_node& items = n.items ? node(*n.items) : any_schema();
        if (items.constant_verdict == false) {
            if (min_items > 0)
                throw schema_error("make_instance: \"items\": false with \"minItems\" > 0 at " + where(path));
            count = 0;
        }
        json::array out;
        for (std::size_t i = 0; i < count; ++i)
            out.push_back(make(items, depth + 1, path + "/" + std::to_string(i)));
        return out;
    }

    json::value make_object(const schema_node& n, int depth, const std::string& path) {
        auto is_required = [&](std::string_view k) {
            return std::find(n.required.begin(), n.required.end(), k) != n.required.end();
        };
        const schema_node* additional = n.additional_properties ? &node(*n.additional_properties) : nullptr;
        const bool closed = additional && additional->constant_verdict == false;

        json::object out;
        for (std::string_view name : n.property_order) {
            // Deep enough, optional members are left out: one way recursion ends.
            if (depth >= shallow_depth && !is_required(name)) continue;
            out[name] = make(node(n.properties.find(name)->second), depth + 1,
                             path + "/" + json_detail::pointer_token(name));
        }
        for (std::string_view k : n.required) {
            if (out.contains(k)) continue;
            if (closed)
                throw schema_error("make_instance: \"" + std::string(k) +
                                   "\" is required but not allowed by the schema at " + where(path));
            out[k] = make(additional ? *additional : any_schema(), depth + 1,
                          path + "/" + json_detail::pointer_token(k));
        }
        // A map (additionalProperties as a schema, no properties): 1 or 2 entries keyed by words.
        if (additional && !additional->constant_verdict && n.properties.empty() && depth < shallow_depth) {
            const std::size_t count = 1 + pick(2);
            for (std::size_t i = 0; i < count; ++i) {
                std::string key = next_word();
                for (int suffix = 2; out.contains(key); ++suffix) key = words_[0] + "_" + std::to_string(suffix);
                out[key] = make(*additional, depth + 1, path + "/" + json_detail::pointer_token(key));
            }
        }
        return out;
    }

    json_detail::compiled_schema schema_;
    std::optional<std::unordered_set<std::string>> ref_locations_; // see mentions_ref
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
    return generator(schema, prompt, seed).make_root();
}

} // namespace forma::testing
