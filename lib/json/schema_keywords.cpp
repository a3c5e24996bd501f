// Non-template parts of JSON Schema generation: keywords, dialect rules, the root.
#include <forma/json/detail/schema_context.hpp>
#include <forma/json/schema_error.hpp>

#include <boost/json/array.hpp>

#include <cmath>
#include <limits>

namespace forma::json_detail {
namespace {

// OpenAI's strict mode accepts these formats only.
bool strict_supports_format(std::string_view f) {
    return f == "date-time" || f == "time" || f == "date" || f == "duration" || f == "email" ||
           f == "hostname" || f == "ipv4" || f == "ipv6" || f == "uuid";
}

// Integral bounds are written as JSON integers: `0`, not `0.0`.
boost::json::value number_value(double v) {
    if (std::trunc(v) == v && std::fabs(v) < 9007199254740992.0)
        return static_cast<std::int64_t>(v);
    return v;
}

void add_note(std::string& notes, std::string_view keyword, const std::string& value) {
    if (!notes.empty()) notes += ", ";
    notes.append(keyword).append(": ").append(value);
}

// Tightens an existing bound (integer widths) instead of replacing it.
void set_bound(boost::json::object& s, std::string_view key, double v, bool is_minimum) {
    if (auto* existing = s.if_contains(key)) {
        const double old = existing->is_int64() ? static_cast<double>(existing->as_int64())
                           : existing->is_uint64() ? static_cast<double>(existing->as_uint64())
                                                   : existing->as_double();
        if (is_minimum ? v <= old : v >= old) return;
    }
    s[key] = number_value(v);
}

} // namespace

bool schema_context::begin_visit(const void* id) {
    for (const void* open : stack_)
        if (open == id) {
            recursive_.insert(id);
            return false;
        }
    if (!visited_.insert(id).second) return false;
    stack_.push_back(id);
    return true;
}

void schema_context::end_visit(const void*) { stack_.pop_back(); }

std::string schema_context::definition_name(const void* id, std::string_view preferred,
                                            bool& created) {
    if (auto it = names_.find(id); it != names_.end()) {
        created = false;
        return it->second;
    }
    std::string name(preferred);
    for (int n = 2; used_names_.count(name); ++n) name = std::string(preferred) + "_" + std::to_string(n);
    used_names_.insert(name);
    names_.emplace(id, name);
    definitions_[name] = nullptr; // reserves the key: definitions keep first-use order
    created = true;
    return name;
}

void schema_context::define(const std::string& name, boost::json::value schema) {
    definitions_[name] = std::move(schema);
}

boost::json::object integer_schema(bool is_signed, std::size_t size) {
    boost::json::object s{{"type", "integer"}};
    // The range of every type up to 32 bits: a grammar made from the schema then keeps the model
    // to what the type holds. Never the full 64-bit range, which several schema-to-grammar
    // converters reject; a 64-bit answer out of range is the reader's error.
    if (size <= 4) {
        const int bits = static_cast<int>(size * 8);
        if (is_signed) {
            s["minimum"] = -(std::int64_t{1} << (bits - 1));
            s["maximum"] = (std::int64_t{1} << (bits - 1)) - 1;
        } else {
            s["minimum"] = 0;
            s["maximum"] = (std::int64_t{1} << bits) - 1;
        }
    } else if (!is_signed) {
        s["minimum"] = 0;
    }
    return s;
}

boost::json::value nullable_schema(boost::json::value inner) {
    // optional<unique_ptr<T>> is nullable once, not twice.
    if (const auto* object = inner.if_object())
        if (const auto* any_of = object->if_contains("anyOf"))
            for (const auto& alternative : any_of->as_array())
                if (alternative == boost::json::object{{"type", "null"}}) return inner;
    return boost::json::object{
        {"anyOf", boost::json::array{std::move(inner), boost::json::object{{"type", "null"}}}}};
}

boost::json::value string_map_schema(boost::json::value value_schema, const schema_context& c) {
    if (!c.strict())
        return boost::json::object{{"type", "object"}, {"additionalProperties", std::move(value_schema)}};
    // Strict mode closes every object, so a map travels as an array of key/value pairs;
    // from_json reads both forms.
    boost::json::object pair{
        {"type", "object"},
        {"properties", boost::json::object{{"key", boost::json::object{{"type", "string"}}},
                                           {"value", std::move(value_schema)}}},
        {"required", boost::json::array{"key", "value"}},
        {"additionalProperties", false}};
    return boost::json::object{{"type", "array"},
                               {"description", "a map, as an array of key/value pairs"},
                               {"items", std::move(pair)}};
}

boost::json::value reference_schema(std::string_view name) {
    return boost::json::object{{"$ref", "#/$defs/" + std::string(name)}};
}

void apply_keywords(boost::json::object& s, std::string_view kind, const field_info& info,
                    const schema_context& c, std::string& notes) {
    if (kind == "integer" || kind == "number") {
        if (info.minimum) set_bound(s, "minimum", *info.minimum, true);
        if (info.maximum) set_bound(s, "maximum", *info.maximum, false);
        if (info.exclusive_minimum) s["exclusiveMinimum"] = number_value(*info.exclusive_minimum);
        if (info.exclusive_maximum) s["exclusiveMaximum"] = number_value(*info.exclusive_maximum);
    } else if (kind == "string") {
        if (c.strict()) {
            if (info.min_length) add_note(notes, "minLength", std::to_string(*info.min_length));
            if (info.max_length) add_note(notes, "maxLength", std::to_string(*info.max_length));
        } else {
            if (info.min_length) s["minLength"] = *info.min_length;
            if (info.max_length) s["maxLength"] = *info.max_length;
        }
        if (!info.pattern.empty()) s["pattern"] = info.pattern;
        if (!info.format.empty()) {
            if (c.strict() && !strict_supports_format(info.format))
                add_note(notes, "format", std::string(info.format));
            else
                s["format"] = info.format;
        }
    } else if (kind == "array") {
        if (info.min_items) s["minItems"] = *info.min_items;
        if (info.max_items) s["maxItems"] = *info.max_items;
    }
}

void describe(boost::json::value& schema, std::string_view description, const std::string& notes,
              const schema_context& c) {
    if (description.empty() && notes.empty()) return;
    auto& object = schema.as_object();
    if (c.strict() && object.contains("$ref")) return;
    // A description already there (a type's own, or the map-as-pairs hint) is kept after
    // the member's, with the notes on moved keywords.
    std::string extras;
    if (const auto* existing = object.if_contains("description"))
        extras = std::string(existing->as_string());
    if (!notes.empty()) extras += (extras.empty() ? "" : "; ") + notes;
    std::string text(description);
    if (!extras.empty()) text += text.empty() ? extras : " (" + extras + ")";
    object["description"] = text;
}

boost::json::value any_value_schema(const schema_context& c) {
    if (c.strict())
        throw schema_error("a boost::json::value (any JSON value) has no schema in OpenAI's strict dialect, which "
                           "wants a type for every value and every member of every object: use the 2020-12 dialect "
                           "or a described type");
    return boost::json::object();
}

boost::json::object finish_root(boost::json::value body, schema_context& c) {
    boost::json::object root;
    if (!c.strict()) root["$schema"] = "https://json-schema.org/draft/2020-12/schema";
    for (auto& member : body.as_object()) root[member.key()] = std::move(member.value());
    if (!c.definitions().empty()) root["$defs"] = std::move(c.definitions());
    return root;
}

} // namespace forma::json_detail
