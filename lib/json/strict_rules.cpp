#include <forma/json/strict_rules.hpp>

#include "json_text.hpp"

#include <boost/json/array.hpp>

#include <algorithm>
#include <array>
#include <vector>

namespace forma {
namespace {

namespace json = boost::json;

constexpr std::size_t max_object_depth = 10;
constexpr std::size_t max_properties = 5000;
// Bounds the recursion for schemas built in code, which no parser has limited.
constexpr std::size_t max_subschema_depth = 256;

constexpr std::array<std::string_view, 19> allowed_keywords = {
    "type",    "properties", "required", "additionalProperties", "items",   "enum",
    "const",   "anyOf",      "$ref",     "$defs",                "description", "title",
    "pattern", "format",     "minimum",  "maximum",              "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf"};

bool is_allowed(std::string_view keyword) {
    return std::find(allowed_keywords.begin(), allowed_keywords.end(), keyword) != allowed_keywords.end() ||
           keyword == "minItems" || keyword == "maxItems";
}

// `"keyword" <what>`, built with append: GCC 12 warns falsely about operator+ chains here.
std::string about(std::string_view keyword, std::string_view what) {
    std::string out;
    out.reserve(keyword.size() + what.size() + 3);
    out.append(1, '"').append(keyword).append("\" ").append(what);
    return out;
}

bool supported_format(std::string_view f) {
    return f == "date-time" || f == "time" || f == "date" || f == "duration" || f == "email" || f == "hostname" ||
           f == "ipv4" || f == "ipv6" || f == "uuid";
}

bool has_type(const json::object& schema, std::string_view name) {
    const json::value* type = schema.if_contains("type");
    if (!type) return false;
    if (const json::string* s = type->if_string()) return *s == name;
    if (const json::array* list = type->if_array())
        return std::any_of(list->begin(), list->end(), [&](const json::value& t) { return t.is_string() && t.get_string() == name; });
    return false;
}

class checker {
public:
    std::optional<std::string> check_root(const json::object& schema) {
        if (!has_type(schema, "object") || schema.contains("anyOf"))
            return std::string("the root must be an object schema (\"type\": \"object\")");
        check(schema, "", 0);
        return violation_;
    }

private:
    void fail(const std::string& path, std::string reason) {
        if (!violation_) violation_ = (path.empty() ? std::string("at the root") : path) + ": " + std::move(reason);
    }

    void check_value(const json::value& v, const std::string& path, std::size_t depth) {
        if (const json::object* o = v.if_object()) check(*o, path, depth);
        else fail(path, "a subschema must be an object, not a boolean or other value");
    }

    void check(const json::object& schema, const std::string& path, std::size_t depth) {
        if (violation_) return;
        if (++nesting_ > max_subschema_depth) return fail(path, "subschemas nest too deep");
        struct leave {
            std::size_t& n;
            ~leave() { --n; }
        } guard{nesting_};
        for (const auto& member : schema)
            if (!is_allowed(member.key())) return fail(path, about(member.key(), "is not supported"));
        if (schema.contains("$ref") && schema.size() > 1) return fail(path, "\"$ref\" must stand alone");
        if (const json::value* format = schema.if_contains("format");
            format && (!format->is_string() || !supported_format(format->get_string())))
            return fail(path, "the format is not one strict mode supports");
        const json::value* properties = schema.if_contains("properties");
        if (has_type(schema, "object") || properties) check_object(schema, properties, path, depth + 1);
        if (const json::value* items = schema.if_contains("items")) check_value(*items, path + "/items", depth);
        if (const json::value* any_of = schema.if_contains("anyOf")) {
            const json::array* alternatives = any_of->if_array();
            if (!alternatives) return fail(path, "\"anyOf\" must be an array");
            for (std::size_t i = 0; i < alternatives->size(); ++i)
                check_value((*alternatives)[i], path + "/anyOf/" + std::to_string(i), depth);
        }
        if (const json::value* defs = schema.if_contains("$defs")) {
            const json::object* definitions = defs->if_object();
            if (!definitions) return fail(path, "\"$defs\" must be an object");
            for (const auto& d : *definitions)
                check_value(d.value(), path + "/$defs/" + json_detail::pointer_token(d.key()), depth);
        }
    }

    void check_object(const json::object& schema, const json::value* properties, const std::string& path,
                      std::size_t depth) {
        if (depth > max_object_depth) return fail(path, "objects nest more than 10 levels deep");
        const json::value* additional = schema.if_contains("additionalProperties");
        if (!additional || *additional != false) return fail(path, "an object must say \"additionalProperties\": false");
        static const json::object none;
        const json::object* members = properties ? properties->if_object() : &none;
        if (!members) return fail(path, "\"properties\" must be an object");
        total_properties_ += members->size();
        if (total_properties_ > max_properties) return fail(path, "the schema has more than 5000 properties");
        const json::value* required = schema.if_contains("required");
        const json::array* names = required ? required->if_array() : nullptr;
        if (!names && !members->empty()) return fail(path, "\"required\" must list every property");
        for (const auto& member : *members) {
            if (std::find(names->begin(), names->end(), json::value(member.key())) == names->end())
                return fail(path, about("required", "lacks \"" + std::string(member.key()) + '"'));
            check_value(member.value(), path + "/properties/" + json_detail::pointer_token(member.key()), depth);
            if (violation_) return;
        }
    }

    std::optional<std::string> violation_;
    std::size_t total_properties_ = 0;
    std::size_t nesting_ = 0;
};

} // namespace

std::optional<std::string> openai_strict_violation(const boost::json::object& schema) {
    return checker().check_root(schema);
}

} // namespace forma
