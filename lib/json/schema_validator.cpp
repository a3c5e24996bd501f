// schema_validator: checks JSON values against a compiled schema (see compiled_schema.hpp).
#include "compiled_schema.hpp"
#include "constraint_sentences.hpp"
#include "json_value_ops.hpp"
#include "json_text.hpp"

#include <forma/registered_secret.hpp>
#include "parsed_numbers.hpp"

#include <forma/json/detail/constraints.hpp>
#include <forma/json/detail/reader.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace forma {

namespace json = boost::json;
using namespace json_detail;

namespace {

/// Where violations go; `limit` ends the walk early (1 for "is it valid?").
struct violation_sink {
    std::vector<schema_violation>& out;
    std::size_t limit;
    bool full() const noexcept { return out.size() >= limit; }
};

struct path_segment_view {
    std::string_view key;
    std::size_t index = 0;
    bool is_index = false;
};

// A value as it appears in a message: strings quoted, containers as (cut) JSON text.
std::string value_text(const json::value& v) {
    if (const auto* s = v.if_string()) return quoted_excerpt(*s);
    if (v.is_number()) return number_text(v);
    std::string text = redact_secrets(json::serialize(v)); // before the cut
    if (text.size() > 40) {
        std::size_t cut = 40; // between characters: the message stays UTF-8
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
        text = text.substr(0, cut) + "...";
    }
    return text;
}

std::string type_names(unsigned types) {
    static constexpr std::pair<unsigned, const char*> names[] = {
        {type_object, "object"},   {type_array, "array"},   {type_string, "string"},
        {type_integer, "integer"}, {type_number, "number"}, {type_boolean, "boolean"},
        {type_null, "null"}};
    std::vector<const char*> listed;
    for (const auto& [bit, name] : names)
        if (types & bit) listed.push_back(name);
    std::string out;
    for (std::size_t i = 0; i < listed.size(); ++i) {
        if (i > 0) out += i + 1 == listed.size() ? " or " : ", ";
        out += listed[i];
    }
    return out;
}

unsigned type_of(const json::value& v) noexcept {
    switch (v.kind()) {
    case json::kind::null:
        return type_null;
    case json::kind::bool_:
        return type_boolean;
    case json::kind::object:
        return type_object;
    case json::kind::array:
        return type_array;
    case json::kind::string:
        return type_string;
    default:
        return type_number | (is_integral(v) ? type_integer : 0u);
    }
}

bool is_multiple(const json::value& v, const json::value& step) {
    // Integers exactly; otherwise the quotient, allowing for the rounding of binary fractions
    // (0.3 is a multiple of 0.1 although 0.3 / 0.1 is 2.9999999999999996).
    const bool integers = (v.is_int64() || v.is_uint64()) && (step.is_int64() || step.is_uint64());
    if (integers) {
        const std::uint64_t magnitude = v.is_uint64() ? v.get_uint64()
                                        : v.get_int64() < 0
                                            ? 0 - static_cast<std::uint64_t>(v.get_int64())
                                            : static_cast<std::uint64_t>(v.get_int64());
        const std::uint64_t divisor =
            step.is_uint64() ? step.get_uint64() : static_cast<std::uint64_t>(step.get_int64());
        return magnitude % divisor == 0;
    }
    const double q = v.to_number<double>() / step.to_number<double>();
    if (!std::isfinite(q)) return false;
    return std::fabs(q - std::round(q)) <= 4 * DBL_EPSILON * std::fabs(q);
}

class validation {
public:
    explicit validation(const compiled_schema& c) : c_(c) {}

    // Measured without recursion first, so that nothing later recurses deeper than this.
    bool within_depth(const json::value& root, violation_sink& sink) {
        if (!root.is_structured()) return true;
        const std::size_t limit = c_.options().max_depth;
        struct frame {
            const json::value* value;
            std::size_t next;
        };
        std::vector<frame> stack{{&root, 0}};
        auto fail = [&] {
            for (const frame& f : stack) { // each frame's last step leads to the next
                if (f.value->is_array())
                    path_.push_back({{}, f.next - 1, true});
                else
                    path_.push_back(
                        {(f.value->get_object().begin() + (f.next - 1))->key(), 0, false});
            }
            report(sink, "",
                   "nesting is deeper than the limit of " + std::to_string(limit) +
                       " (schema_validator_options::max_depth)");
            path_.clear();
            return false;
        };
        if (limit == 0) {
            stack.clear();
            return fail();
        }
        while (!stack.empty()) {
            frame& f = stack.back();
            const json::value* child = nullptr;
            if (const auto* array = f.value->if_array()) {
                if (f.next < array->size()) child = &(*array)[f.next++];
            } else if (const auto& object = f.value->get_object(); f.next < object.size()) {
                child = &(object.begin() + f.next++)->value();
            }
            if (!child) {
                stack.pop_back();
            } else if (child->is_structured()) {
                if (stack.size() >= limit) return fail();
                stack.push_back({child, 0});
            }
        }
        return true;
    }

    /// Whether validation gave up (max_steps): its verdict must then be "invalid".
    bool exhausted() const noexcept { return steps_ > c_.options().max_steps; }

    bool visit(node_id id, const json::value& v, violation_sink& sink) {
        if (sink.full() || exhausted()) return false;
        if (++steps_ > c_.options().max_steps) return false; // reported once, by the caller
        const schema_node& n = c_.node(id);
        if (n.constant_verdict) {
            if (!*n.constant_verdict)
                report(sink, n.location, "no value is allowed here (the schema is false)");
            return *n.constant_verdict;
        }
        if (frames_ == c_.max_frames()) {
            report(sink, n.location,
                   "subschemas and $refs nest deeper than the limit of " +
                       std::to_string(c_.max_frames()) +
                       " here (8 x schema_validator_options::max_depth)");
            return false;
        }
        ++frames_;
        const std::size_t before = sink.out.size();
        check(n, v, sink);
        --frames_;
        return sink.out.size() == before;
    }

private:
    void check(const schema_node& n, const json::value& v, violation_sink& sink) {
        const std::string& at = n.location;
        if (n.ref && !visit(*n.ref, v, sink) && sink.full()) return;
        if (n.types && !(n.types & type_of(v)))
            report(sink, at + "/type",
                   "expected " + type_names(n.types) + ", got " + describe_value(v));
        if (n.const_value && !json_equal(v, *n.const_value))
            report(sink, at + "/const",
                   "expected " + value_text(*n.const_value) + ", got " + describe_value(v));
        if (n.enum_values && std::none_of(n.enum_values->begin(), n.enum_values->end(),
                                          [&](const json::value& e) { return json_equal(v, e); }))
            report(sink, at + "/enum",
                   value_text(v) + " is not one of " + enum_list(*n.enum_values));
        if (sink.full()) return;
        if (v.is_number())
            check_number(n, v, sink);
        else if (const auto* s = v.if_string())
            check_string(n, *s, sink);
        else if (const auto* a = v.if_array())
            check_array(n, *a, sink);
        else if (const auto* o = v.if_object())
            check_object(n, *o, v, sink);
        check_combinators(n, v, sink);
    }

    void check_number(const schema_node& n, const json::value& v, violation_sink& sink) {
        const std::string& at = n.location;
        if (n.minimum && compare_numbers(v, *n.minimum) < 0)
            report(sink, at + "/minimum", sentence::less_than_minimum(number_text(v), number_text(*n.minimum)));
        if (n.maximum && compare_numbers(v, *n.maximum) > 0)
            report(sink, at + "/maximum", sentence::greater_than_maximum(number_text(v), number_text(*n.maximum)));
        if (n.exclusive_minimum && compare_numbers(v, *n.exclusive_minimum) <= 0)
            report(sink, at + "/exclusiveMinimum",
                   sentence::not_above_exclusive_minimum(number_text(v), number_text(*n.exclusive_minimum)));
        if (n.exclusive_maximum && compare_numbers(v, *n.exclusive_maximum) >= 0)
            report(sink, at + "/exclusiveMaximum",
                   sentence::not_below_exclusive_maximum(number_text(v), number_text(*n.exclusive_maximum)));
        if (n.multiple_of && !is_multiple(v, *n.multiple_of))
            report(sink, at + "/multipleOf",
                   number_text(v) + " is not a multiple of " + number_text(*n.multiple_of));
    }

    void check_string(const schema_node& n, std::string_view s, violation_sink& sink) {
        const std::string& at = n.location;
        if (n.min_length || n.max_length) {
            const std::size_t length = count_code_points(s);
            if (n.min_length && length < *n.min_length)
                report(sink, at + "/minLength", sentence::shorter_than(quoted_excerpt(s), *n.min_length));
            if (n.max_length && length > *n.max_length)
                report(sink, at + "/maxLength", sentence::longer_than(quoted_excerpt(s), *n.max_length));
        }
        if (n.pattern) {
            const match_result m = search(*n.pattern, s);
            if (m == match_result::no)
                report(sink, at + "/pattern",
                       sentence::no_pattern_match(quoted_excerpt(s), quoted_excerpt(n.pattern->source, 64)));
            else if (m == match_result::too_complex)
                report(sink, at + "/pattern",
                       quoted_excerpt(s) + " could not be matched against the pattern " +
                           quoted_excerpt(n.pattern->source, 64) + ": the match is too complex");
        }
        if (!n.format.empty() && !matches_format(n.format, s))
            report(sink, at + "/format", sentence::not_a_valid(quoted_excerpt(s), n.format));
    }

    void check_array(const schema_node& n, const json::array& a, violation_sink& sink) {
        const std::string& at = n.location;
        if (n.min_items && a.size() < *n.min_items)
            report(sink, at + "/minItems", sentence::fewer_items(a.size(), *n.min_items));
        if (n.max_items && a.size() > *n.max_items)
            report(sink, at + "/maxItems", sentence::more_items(a.size(), *n.max_items));
        const std::size_t prefix = n.prefix_items.size();
        const bool closed = n.items && c_.node(*n.items).constant_verdict == false;
        if (closed && a.size() > prefix)
            report(sink, at + "/items",
                   "array has " + std::to_string(a.size()) + " items, more than the " +
                       std::to_string(prefix) + " allowed (items is false)");
        for (std::size_t i = 0; i < a.size() && !sink.full(); ++i) {
            const std::optional<node_id> item = i < prefix ? n.prefix_items[i]
                                                : closed   ? std::nullopt
                                                           : n.items;
            if (!item) continue;
            path_.push_back({{}, i, true});
            visit(*item, a[i], sink);
            path_.pop_back();
        }
        if (n.contains) check_contains(n, a, sink);
        if (n.unique_items) check_unique(n, a, sink);
    }

    void check_contains(const schema_node& n, const json::array& a, violation_sink& sink) {
        const std::size_t minimum = n.min_contains.value_or(1);
        std::size_t matches = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            path_.push_back({{}, i, true});
            matches += quietly_valid(*n.contains, a[i]);
            path_.pop_back();
        }
        const std::string counted =
            "array has " + std::to_string(matches) + " items that match \"contains\", ";
        if (matches < minimum)
            report(sink, n.location + (n.min_contains ? "/minContains" : "/contains"),
                   counted + "fewer than the minimum " + std::to_string(minimum));
        if (n.max_contains && matches > *n.max_contains)
            report(sink, n.location + "/maxContains",
                   counted + "more than the maximum " + std::to_string(*n.max_contains));
    }

    void check_unique(const schema_node& n, const json::array& a, violation_sink& sink) {
        // Hashes first, so that long arrays do not cost a comparison per pair.
        std::vector<std::pair<std::size_t, std::size_t>> hashed; // hash, index
        hashed.reserve(a.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            hashed.emplace_back(json_hash(a[i]), i);
        std::sort(hashed.begin(), hashed.end());
        std::optional<std::pair<std::size_t, std::size_t>> first; // the duplicate pair seen first
        for (std::size_t i = 0; i < hashed.size(); ++i)
            for (std::size_t j = i + 1; j < hashed.size() && hashed[j].first == hashed[i].first;
                 ++j)
                if (json_equal(a[hashed[i].second], a[hashed[j].second]) &&
                    (!first || hashed[j].second < first->second))
                    first = std::pair(hashed[i].second, hashed[j].second);
        if (first)
            report(sink, n.location + "/uniqueItems",
                   "items " + std::to_string(first->first) + " and " +
                       std::to_string(first->second) + " are equal (uniqueItems is true)");
    }

    void check_object(const schema_node& n, const json::object& o, const json::value& v,
                      violation_sink& sink) {
        const std::string& at = n.location;
        if (n.min_properties && o.size() < *n.min_properties)
            report(sink, at + "/minProperties",
                   "object has " + std::to_string(o.size()) + " members, fewer than the minimum " +
                       std::to_string(*n.min_properties));
        if (n.max_properties && o.size() > *n.max_properties)
            report(sink, at + "/maxProperties",
                   "object has " + std::to_string(o.size()) + " members, more than the maximum " +
                       std::to_string(*n.max_properties));
        for (const std::string& name : n.required)
            if (!o.contains(name))
                report(sink, at + "/required",
                       "missing required member " + quoted_excerpt(name, 64));
        for (const auto& [name, needed] : n.dependent_required)
            if (o.contains(name))
                for (const std::string& other : needed)
                    if (!o.contains(other))
                        report(sink, at + "/dependentRequired/" + json_detail::pointer_token(name),
                               "member " + quoted_excerpt(name, 64) + " requires member " +
                                   quoted_excerpt(other, 64));
        if (n.property_names)
            for (const auto& member : o) {
                std::vector<schema_violation> found;
                violation_sink first{found, 1};
                if (!visit(*n.property_names, json::value(member.key()), first))
                    report(sink, at + "/propertyNames",
                           "member name " + quoted_excerpt(member.key(), 64) +
                               " is invalid: " + found.front().reason);
            }
        const bool closed =
            n.additional_properties && c_.node(*n.additional_properties).constant_verdict == false;
        for (const auto& member : o) {
            if (sink.full()) return;
            const std::string_view key = member.key();
            bool matched = false;
            path_.push_back({key, 0, false});
            if (auto it = n.properties.find(key); it != n.properties.end()) {
                matched = true;
                visit(it->second, member.value(), sink);
            }
            for (const auto& [pattern, child] : n.pattern_properties) {
                const match_result m = search(pattern, key);
                if (m == match_result::too_complex)
                    report(sink, at + "/patternProperties/" + json_detail::pointer_token(pattern.source),
                           "member name could not be matched against the pattern " +
                               quoted_excerpt(pattern.source, 64) + ": the match is too complex");
                if (m != match_result::yes) continue;
                matched = true;
                visit(child, member.value(), sink);
            }
            path_.pop_back();
            if (matched || !n.additional_properties) continue;
            if (closed) {
                // As from_json reports it: at the object, naming the member.
                report(sink, at + "/additionalProperties",
                       "unknown member " + quoted_excerpt(key, 64) +
                           " (additionalProperties is false)");
                continue;
            }
            path_.push_back({key, 0, false});
            visit(*n.additional_properties, member.value(), sink);
            path_.pop_back();
        }
        for (const auto& [name, child] : n.dependent_schemas)
            if (o.contains(name)) visit(child, v, sink);
    }

    void check_combinators(const schema_node& n, const json::value& v, violation_sink& sink) {
        const std::string& at = n.location;
        for (node_id child : n.all_of)
            visit(child, v, sink);
        if (!n.any_of.empty()) {
            std::vector<schema_violation> reasons; // each alternative's first violation
            bool matched = false;
            for (std::size_t i = 0; i < n.any_of.size() && !matched; ++i)
                matched = quietly_valid(n.any_of[i], v, &reasons);
            if (!matched) report_no_alternative(n.any_of, reasons, at + "/anyOf", v, sink);
        }
        if (!n.one_of.empty()) {
            std::vector<schema_violation> reasons;
            std::vector<std::size_t> matched;
            for (std::size_t i = 0; i < n.one_of.size() && matched.size() < 2; ++i)
                if (quietly_valid(n.one_of[i], v, &reasons)) matched.push_back(i);
            if (matched.empty())
                report_no_alternative(n.one_of, reasons, at + "/oneOf", v, sink);
            else if (matched.size() > 1)
                report(sink, at + "/oneOf",
                       "matches alternatives " + std::to_string(matched[0]) + " and " +
                           std::to_string(matched[1]) + ", but oneOf allows exactly one");
        }
        if (n.not_schema && quietly_valid(*n.not_schema, v))
            report(sink, at + "/not", "matches the schema in \"not\", which it must not");
        if (n.if_schema) {
            if (quietly_valid(*n.if_schema, v)) {
                if (n.then_schema) visit(*n.then_schema, v, sink);
            } else if (n.else_schema) {
                visit(*n.else_schema, v, sink);
            }
        }
    }

    // Whether v matches, recording nothing but, in `reasons`, its first violation.
    bool quietly_valid(node_id id, const json::value& v,
                       std::vector<schema_violation>* reasons = nullptr) {
        std::vector<schema_violation> found;
        violation_sink first{found, 1};
        if (visit(id, v, first)) return true;
        if (reasons) reasons->push_back(std::move(found.front()));
        return false;
    }

    // When no alternative matches, say why as from_json would: alternatives that reject
    // the value's type (null for a nullable member) are left out; if one remains, its
    // violations are the answer, at their own paths.
    void report_no_alternative(const std::vector<node_id>& alternatives,
                               const std::vector<schema_violation>& firsts,
                               const std::string& schema_path, const json::value& v,
                               violation_sink& sink) {
        const std::string here = pointer();
        unsigned expected_types = 0;
        std::vector<std::pair<std::size_t, schema_violation>> candidates; // alternative, why
        for (std::size_t i = 0; i < alternatives.size(); ++i) {
            const schema_violation& why = firsts[i];
            const schema_node* typed =
                why.path == here && why.schema_path.ends_with("/type")
                    ? c_.find_node(why.schema_path.substr(0, why.schema_path.size() - 5))
                    : nullptr;
            if (typed && typed->types != 0 && !(typed->types & type_of(v))) {
                expected_types |= typed->types;
            } else if (why.path != here || !c_.rejects_everything(why.schema_path)) {
                candidates.emplace_back(i, why);
            }
        }
        if (candidates.size() == 1) {
            // Its first violation is known; visit again only to collect the others.
            if (sink.limit - sink.out.size() == 1)
                sink.out.push_back(candidates.front().second);
            else
                visit(alternatives[candidates.front().first], v, sink);
            return;
        }
        if (candidates.empty() && expected_types != 0) {
            report(sink, schema_path,
                   "expected " + type_names(expected_types) + ", got " + describe_value(v));
            return;
        }
        std::string reasons;
        constexpr std::size_t listed = 4;
        for (std::size_t k = 0; k < candidates.size() && k <= listed; ++k) {
            if (k > 0) reasons += "; ";
            if (k == listed) {
                reasons += "...";
                break;
            }
            const auto& [i, why] = candidates[k];
            reasons += "alternative " + std::to_string(i) + ": ";
            if (why.path.size() > here.size())
                reasons += "at " + why.path.substr(here.size()) + ": ";
            reasons += why.reason;
        }
        report(sink, schema_path, "matches none of the alternatives (" + reasons + ")");
    }

    static std::string enum_list(const json::array& values) {
        std::string out;
        for (const auto& e : values) {
            if (!out.empty()) out += ", ";
            if (out.size() > 200) return out + "...";
            out += value_text(e);
        }
        return out.empty() ? "an empty enum" : out;
    }

    std::string pointer() const {
        std::string p;
        for (const auto& s : path_) {
            p += '/';
            p += s.is_index ? std::to_string(s.index) : json_detail::pointer_token(s.key);
        }
        return p;
    }

    void report(violation_sink& sink, const std::string& schema_path, std::string reason) {
        if (sink.full()) return;
        sink.out.push_back({pointer(), schema_path, std::move(reason)});
    }

    const compiled_schema& c_;
    std::vector<path_segment_view> path_;
    std::size_t frames_ = 0;
    std::size_t steps_ = 0;
};

} // namespace

schema_validator::schema_validator(const json::value& schema,
                                   const schema_validator_options& options)
    : compiled_(std::make_shared<const compiled_schema>(schema, options)) {}

schema_validator::schema_validator(const json::object& schema,
                                   const schema_validator_options& options)
    : schema_validator(json::value(schema), options) {}

schema_validator schema_validator::from_text(std::string_view schema_text,
                                             const schema_validator_options& options) {
    json::parse_options limits;
    limits.max_depth = 8 * options.max_depth + 16; // as deep as compiling will accept
    json::stream_parser parser({}, limits);
    boost::system::error_code ec;
    const std::size_t used = parser.write_some(schema_text.data(), schema_text.size(), ec);
    if (!ec && used < schema_text.size()) ec = json::error::extra_data;
    if (!ec) parser.finish(ec);
    if (ec)
        throw schema_error("schema text is not valid JSON: " + ec.message() + " at " +
                           json_detail::line_and_column(schema_text, used));
    json::value schema = parser.release();
    if (const auto at = json_detail::repair_parsed_numbers(schema))
        throw schema_error("schema text has a number too large for a double at " + *at);
    return schema_validator(std::move(schema), options);
}

std::vector<schema_violation> schema_validator::violations(const json::value& instance,
                                                           std::size_t limit) const {
    std::vector<schema_violation> found;
    if (limit == 0) return found;
    violation_sink sink{found, limit};
    validation run(*compiled_);
    if (run.within_depth(instance, sink)) run.visit(compiled_->root(), instance, sink);
    if (run.exhausted()) // any verdict reached so far may rest on an unfinished check
        return {{"", "",
                 "validation stopped after " + std::to_string(compiled_->options().max_steps) +
                     " steps (schema_validator_options::max_steps): the schema's alternatives "
                     "multiply beyond it"}};
    return found;
}

boost::system::result<void, json_error>
schema_validator::try_validate(const json::value& instance) const {
    const std::vector<schema_violation> found = violations(instance, 1);
    if (found.empty()) return {};
    return json_error(found.front().path, found.front().reason);
}

void schema_validator::validate(const json::value& instance) const {
    const std::vector<schema_violation> found = violations(instance, 1);
    if (!found.empty()) throw json_error(found.front().path, found.front().reason);
}

bool schema_validator::is_valid(const json::value& instance) const {
    return violations(instance, 1).empty();
}

const json::value& schema_validator::schema() const noexcept {
    return compiled_->schema();
}

} // namespace forma
