// Compiles a JSON Schema for schema_validator: every keyword checked once, `$ref`s
// resolved, and anything validation could not honour refused with a schema_error.
#include "compiled_schema.hpp"
#include "json_value_ops.hpp"
#include "json_text.hpp"

#include <forma/json/detail/constraints.hpp>
#include <forma/json/detail/reader.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace forma {

namespace json = boost::json;
using namespace json_detail;

namespace {

// Keywords that only annotate: ignoring them changes no verdict.
constexpr std::string_view annotation_keywords[] = {
    "$schema",    "$comment", "title",     "description",     "default",          "examples",
    "deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType", "contentSchema"};

bool is_annotation(std::string_view key) {
    return key.starts_with("x-") ||
           std::find(std::begin(annotation_keywords), std::end(annotation_keywords), key) !=
               std::end(annotation_keywords);
}

unsigned type_bit_of(std::string_view name) {
    if (name == "null") return type_null;
    if (name == "boolean") return type_boolean;
    if (name == "object") return type_object;
    if (name == "array") return type_array;
    if (name == "number") return type_number;
    if (name == "string") return type_string;
    if (name == "integer") return type_integer;
    return 0;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

namespace json_detail {

/// Walks the schema once, depth-first, building one schema_node per subschema.
class schema_compiler {
public:
    explicit schema_compiler(compiled_schema& c) : c_(c), max_nesting_(c.max_frames()) {}

    void run() {
        compile(c_.schema_, "", 0);
        while (!pending_.empty()) {
            pending_ref ref = std::move(pending_.back());
            pending_.pop_back();
            std::string location;
            const json::value& target = resolve(ref, location);
            const node_id id = compile(target, location, 0);
            c_.nodes_[ref.node].ref = id;
            c_.nodes_[ref.node].in_place.emplace_back(id, ref.location);
        }
        check_cycles();
    }

private:
    struct pending_ref {
        node_id node;
        std::string text;
        std::string location;
    };

    [[noreturn]] static void fail(const std::string& location, const std::string& what) {
        throw schema_error("invalid schema at #" + location + ": " + what);
    }

    node_id compile(const json::value& s, const std::string& location, std::size_t depth) {
        if (auto it = memo_.find(&s); it != memo_.end()) return it->second;
        if (depth > max_nesting_)
            fail(location, "subschemas nest deeper than the limit of " +
                               std::to_string(max_nesting_) +
                               " (8 x schema_validator_options::max_depth)");
        const node_id id = c_.nodes_.size();
        c_.nodes_.emplace_back().location = location;
        memo_.emplace(&s, id);
        if (s.is_bool()) {
            c_.nodes_[id].constant_verdict = s.get_bool();
            return id;
        }
        const auto* object = s.if_object();
        if (!object)
            fail(location, "a schema must be an object or a boolean, got " + describe_value(s));
        for (const auto& member : *object)
            keyword(id, member.key(), member.value(), location, depth);
        return id;
    }

    // Keyword values are checked here so that validation can trust them.
    void keyword(node_id id, std::string_view key, const json::value& v,
                 const std::string& location, std::size_t depth) {
        const std::string at = location + "/" + json_detail::pointer_token(key);
        std::string quoted(1, '"'); // not `"\"" + std::string(key)`: GCC 12 warns falsely on it
        quoted.append(key).push_back('"');
        schema_node& n = c_.nodes_[id]; // a deque: stays valid while children are added
        auto sub = [&](const json::value& x, const std::string& where) {
            return compile(x, where, depth + 1);
        };
        auto in_place = [&](const json::value& x, const std::string& where) {
            const node_id child = sub(x, where);
            c_.nodes_[id].in_place.emplace_back(child, where);
            return child;
        };
        auto object_of = [&](const char* what) -> const json::object& {
            if (!v.is_object())
                fail(at, quoted + " must be an object of " + what + ", got " + describe_value(v));
            return v.get_object();
        };
        auto schema_list = [&](bool applies_in_place) {
            const auto* list = v.if_array();
            if (!list || list->empty())
                fail(at,
                     quoted + " must be a non-empty array of schemas, got " + describe_value(v));
            std::vector<node_id> ids;
            for (std::size_t i = 0; i < list->size(); ++i) {
                const std::string where = at + "/" + std::to_string(i);
                ids.push_back(applies_in_place ? in_place((*list)[i], where)
                                               : sub((*list)[i], where));
            }
            return ids;
        };
        auto number = [&]() -> const json::value* {
            if (!v.is_number()) fail(at, quoted + " must be a number, got " + describe_value(v));
            return &v;
        };
        auto count = [&]() -> std::size_t {
            if (!v.is_number() || !is_integral(v) || compare_numbers(v, json::value(0)) < 0)
                fail(at, quoted + " must be a non-negative integer, got " + describe_value(v));
            if (v.is_int64()) return static_cast<std::size_t>(v.get_int64());
            if (v.is_uint64()) return static_cast<std::size_t>(v.get_uint64());
            const double d = v.get_double();
            return d >= 1.8e19 ? std::numeric_limits<std::size_t>::max()
                               : static_cast<std::size_t>(d);
        };
        auto string_list = [&]() {
            const auto* list = v.if_array();
            if (!list) fail(at, quoted + " must be an array of strings, got " + describe_value(v));
            std::vector<std::string> names;
            for (const auto& name : *list) {
                if (!name.is_string())
                    fail(at, quoted + " must be an array of strings, not one with " +
                                 describe_value(name));
                names.emplace_back(name.get_string());
            }
            return names;
        };

        if (key == "$ref") {
            if (!v.is_string()) fail(at, "\"$ref\" must be a string, got " + describe_value(v));
            pending_.push_back({id, std::string(v.get_string()), at});
        } else if (key == "$defs" || key == "definitions") {
            for (const auto& m : object_of("schemas"))
                sub(m.value(), at + "/" + json_detail::pointer_token(m.key()));
        } else if (key == "$id") {
            // Elsewhere than the root, $id changes what "#..." refers to below it.
            if (!location.empty()) fail(at, "\"$id\" is supported only at the root");
            if (!v.is_string()) fail(at, "\"$id\" must be a string, got " + describe_value(v));
            root_id_ = std::string(v.get_string());
            if (root_id_.ends_with('#')) root_id_.pop_back();
        } else if (is_annotation(key)) {
            // changes no verdict
        } else if (key == "type") {
            auto add = [&](const json::value& name) {
                const unsigned bit = name.is_string() ? type_bit_of(name.get_string()) : 0;
                if (bit == 0)
                    fail(at,
                         "unknown type " + describe_value(name) +
                             " (expected null, boolean, object, array, number, string or integer)");
                n.types |= bit;
            };
            if (const auto* list = v.if_array()) {
                if (list->empty()) fail(at, "\"type\" must not be an empty array");
                for (const auto& name : *list)
                    add(name);
            } else {
                add(v);
            }
        } else if (key == "enum") {
            if (!v.is_array()) fail(at, "\"enum\" must be an array, got " + describe_value(v));
            n.enum_values = &v.get_array();
        } else if (key == "const") {
            n.const_value = &v;
        } else if (key == "minimum") {
            n.minimum = number();
        } else if (key == "maximum") {
            n.maximum = number();
        } else if (key == "exclusiveMinimum") {
            n.exclusive_minimum = number();
        } else if (key == "exclusiveMaximum") {
            n.exclusive_maximum = number();
        } else if (key == "multipleOf") {
            if (compare_numbers(*number(), json::value(0)) <= 0)
                fail(at, "\"multipleOf\" must be greater than 0, got " + number_text(v));
            n.multiple_of = &v;
        } else if (key == "minLength") {
            n.min_length = count();
        } else if (key == "maxLength") {
            n.max_length = count();
        } else if (key == "pattern") {
            if (!v.is_string()) fail(at, "\"pattern\" must be a string, got " + describe_value(v));
            n.pattern = make_pattern(v.get_string(), at);
        } else if (key == "format") {
            if (!v.is_string()) fail(at, "\"format\" must be a string, got " + describe_value(v));
            if (is_checked_format(v.get_string())) n.format = v.get_string();
        } else if (key == "items") {
            n.items = sub(v, at);
        } else if (key == "prefixItems") {
            n.prefix_items = schema_list(false);
        } else if (key == "contains") {
            n.contains = sub(v, at);
        } else if (key == "minContains") {
            n.min_contains = count();
        } else if (key == "maxContains") {
            n.max_contains = count();
        } else if (key == "minItems") {
            n.min_items = count();
        } else if (key == "maxItems") {
            n.max_items = count();
        } else if (key == "uniqueItems") {
            if (!v.is_bool())
                fail(at, "\"uniqueItems\" must be a boolean, got " + describe_value(v));
            n.unique_items = v.get_bool();
        } else if (key == "properties") {
            for (const auto& m : object_of("schemas")) {
                const node_id child = sub(m.value(), at + "/" + json_detail::pointer_token(m.key()));
                c_.nodes_[id].properties.emplace(std::string(m.key()), child);
                c_.nodes_[id].property_order.push_back(m.key()); // a key of c_.schema_: it stays
            }
        } else if (key == "patternProperties") {
            for (const auto& m : object_of("schemas")) {
                const std::string where = at + "/" + json_detail::pointer_token(m.key());
                compiled_pattern p = make_pattern(m.key(), where);
                const node_id child = sub(m.value(), where);
                c_.nodes_[id].pattern_properties.emplace_back(std::move(p), child);
            }
        } else if (key == "additionalProperties") {
            n.additional_properties = sub(v, at);
        } else if (key == "propertyNames") {
            n.property_names = sub(v, at);
        } else if (key == "required") {
            n.required = string_list();
        } else if (key == "minProperties") {
            n.min_properties = count();
        } else if (key == "maxProperties") {
            n.max_properties = count();
        } else if (key == "dependentRequired") {
            for (const auto& m : object_of("arrays of strings")) {
                const auto* list = m.value().if_array();
                if (!list || !std::all_of(list->begin(), list->end(),
                                          [](const json::value& x) { return x.is_string(); }))
                    fail(at + "/" + json_detail::pointer_token(m.key()),
                         "\"dependentRequired\" values must be arrays of strings");
                std::vector<std::string> names;
                for (const auto& name : *list)
                    names.emplace_back(name.get_string());
                n.dependent_required.emplace_back(std::string(m.key()), std::move(names));
            }
        } else if (key == "dependentSchemas") {
            for (const auto& m : object_of("schemas")) {
                const node_id child = in_place(m.value(), at + "/" + json_detail::pointer_token(m.key()));
                c_.nodes_[id].dependent_schemas.emplace_back(std::string(m.key()), child);
            }
        } else if (key == "allOf") {
            n.all_of = schema_list(true);
        } else if (key == "anyOf") {
            n.any_of = schema_list(true);
        } else if (key == "oneOf") {
            n.one_of = schema_list(true);
        } else if (key == "not") {
            n.not_schema = in_place(v, at);
        } else if (key == "if") {
            n.if_schema = in_place(v, at);
        } else if (key == "then") {
            n.then_schema = in_place(v, at);
        } else if (key == "else") {
            n.else_schema = in_place(v, at);
        } else {
            fail(at, "keyword " + quoted + " is not supported");
        }
    }

    static compiled_pattern make_pattern(std::string_view source, const std::string& at) {
        try {
            return compile_pattern(source);
        } catch (const std::exception& e) {
            fail(at, "invalid pattern " + quoted_excerpt(source, 64) + ": " + e.what());
        }
    }

    const json::value& resolve(const pending_ref& ref, std::string& location) {
        std::string_view text = ref.text;
        if (!root_id_.empty() && text.starts_with(root_id_)) text.remove_prefix(root_id_.size());
        if (text.empty()) text = "#";
        if (text.front() != '#')
            fail(ref.location, "\"$ref\" " + quoted_excerpt(ref.text, 64) +
                                   " is not supported: only local references (\"#...\") are");
        std::string fragment; // percent-decoded, as a URI fragment is
        for (std::size_t i = 1; i < text.size(); ++i) {
            int hi = -1, lo = -1;
            if (text[i] == '%' && i + 2 < text.size() + 0 && (hi = hex_digit(text[i + 1])) >= 0 &&
                (lo = hex_digit(text[i + 2])) >= 0) {
                fragment += static_cast<char>(hi * 16 + lo);
                i += 2;
            } else {
                fragment += text[i];
            }
        }
        if (!fragment.empty() && fragment.front() != '/')
            fail(ref.location, "\"$ref\" " + quoted_excerpt(ref.text, 64) +
                                   " is not supported: anchors are not, JSON Pointers are");
        const json::value* target = &c_.schema_;
        auto unresolved = [&] {
            fail(ref.location, "\"$ref\" " + quoted_excerpt(ref.text, 64) + " does not resolve");
        };
        const std::optional<std::vector<std::string>> tokens = json_detail::pointer_tokens(fragment);
        if (!tokens) unresolved();
        for (const std::string& token : *tokens) {
            if (const auto* object = target->if_object()) {
                target = object->if_contains(token);
            } else if (const auto* array = target->if_array()) {
                const bool is_index = !token.empty() && token.size() < 10 &&
                                      std::all_of(token.begin(), token.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; }) &&
                                      (token == "0" || token[0] != '0');
                const std::size_t index = is_index ? std::stoul(token) : array->size();
                target = index < array->size() ? &(*array)[index] : nullptr;
            } else {
                target = nullptr;
            }
            if (!target) unresolved();
            location.append("/").append(json_detail::pointer_token(token));
        }
        return *target;
    }

    // A cycle of subschemas applied to the same value ({"$ref": "#"} at the root) would
    // recurse forever on any instance: refused here, depth-first without recursion.
    void check_cycles() const {
        enum : unsigned char { unvisited, open, done };
        std::vector<unsigned char> state(c_.nodes_.size(), unvisited);
        std::vector<std::pair<node_id, std::size_t>> stack; // node, next edge
        for (node_id start = 0; start < c_.nodes_.size(); ++start) {
            if (state[start] != unvisited) continue;
            state[start] = open;
            stack.emplace_back(start, 0);
            while (!stack.empty()) {
                auto& [node, next] = stack.back();
                const auto& edges = c_.nodes_[node].in_place;
                if (next == edges.size()) {
                    state[node] = done;
                    stack.pop_back();
                    continue;
                }
                const auto& [target, where] = edges[next++];
                if (state[target] == open)
                    fail(where, "refers back to #" + c_.nodes_[target].location +
                                    " without descending into the instance, so validation would "
                                    "never end");
                if (state[target] == unvisited) {
                    state[target] = open;
                    stack.emplace_back(target, 0);
                }
            }
        }
    }

    compiled_schema& c_;
    std::size_t max_nesting_;
    std::unordered_map<const json::value*, node_id> memo_;
    std::vector<pending_ref> pending_;
    std::string root_id_;
};

compiled_schema::compiled_schema(json::value schema, const schema_validator_options& options)
    : schema_(std::move(schema)), options_(options) {
    schema_compiler(*this).run();
    for (node_id id = 0; id < nodes_.size(); ++id)
        by_location_.emplace(nodes_[id].location, id);
}

const schema_node* compiled_schema::find_node(const std::string& location) const {
    const auto it = by_location_.find(location);
    return it == by_location_.end() ? nullptr : &nodes_[it->second];
}

bool compiled_schema::rejects_everything(const std::string& schema_path) const {
    const schema_node* n = find_node(schema_path);
    return n && n->constant_verdict == false;
}

} // namespace json_detail

} // namespace forma
