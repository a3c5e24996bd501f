#include <forma/model/response_format.hpp>

#include "json_support.hpp"
#include "../json/json_text.hpp"
#include "../json/parsed_numbers.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>

namespace forma {
namespace {

using namespace model_detail;

void check_name(const std::string& name) {
    if (!reflect::detail::is_valid_schema_name(name))
        throw schema_error("response format name \"" + name +
                           "\" is invalid: it must match ^[A-Za-z0-9_-]{1,64}$");
}

boost::json::object parse_schema(std::string_view name, std::string_view text) {
    boost::json::stream_parser parser;
    boost::system::error_code ec;
    const std::size_t used = parser.write_some(text.data(), text.size(), ec);
    if (!ec && used < text.size()) ec = boost::json::error::extra_data;
    if (!ec) parser.finish(ec);
    const std::string what = "schema text of response format \"" + std::string(name) + "\"";
    if (ec)
        throw schema_error(what + " is not valid JSON: " + ec.message() + " at " +
                           json_detail::line_and_column(text, used));
    boost::json::value schema = parser.release();
    if (const auto at = json_detail::repair_parsed_numbers(schema))
        throw schema_error(what + " has a number too large for a double at " + *at);
    if (!schema.is_object())
        throw schema_error(what + " must be a JSON object, got " + describe(schema));
    return std::move(schema.get_object());
}

const char* kind_name(response_format_kind kind) {
    switch (kind) {
    case response_format_kind::text: return "text";
    case response_format_kind::json: return "json";
    case response_format_kind::json_schema: return "json_schema";
    }
    return "text";
}

} // namespace

boost::json::object response_format::wrap_in_data_object(const boost::json::object& schema) {
    boost::json::object inner = schema;
    boost::json::object wrapper;
    if (auto it = inner.find("$schema"); it != inner.end()) {
        wrapper["$schema"] = std::move(it->value());
        inner.erase(it);
    }
    wrapper["type"] = "object";
    boost::json::value defs;
    if (auto it = inner.find("$defs"); it != inner.end()) {
        defs = std::move(it->value());
        inner.erase(it);
    }
    wrapper["properties"] = boost::json::object{{"data", std::move(inner)}};
    wrapper["required"] = boost::json::array{"data"};
    wrapper["additionalProperties"] = false;
    if (!defs.is_null()) wrapper["$defs"] = std::move(defs);
    return wrapper;
}

response_format response_format::json_schema(std::string name, boost::json::object schema,
                                             std::string description,
                                             std::optional<bool> strict) {
    check_name(name);
    response_format format(response_format_kind::json_schema);
    format.name_ = std::move(name);
    // In memory of its own (the default resource): a schema made in a caller's arena, such as
    // a request body's, is copied out, since the format outlives it.
    format.schema_ = std::make_shared<const boost::json::object>(std::move(schema), boost::json::storage_ptr());
    format.description_ = std::move(description);
    format.strict_ = strict;
    return format;
}

response_format response_format::json_schema(std::string name, std::string_view schema_text,
                                             std::string description,
                                             std::optional<bool> strict) {
    check_name(name);
    boost::json::object schema = parse_schema(name, schema_text);
    return json_schema(std::move(name), std::move(schema), std::move(description), strict);
}

const boost::json::object& response_format::schema() const noexcept {
    static const boost::json::object empty;
    return schema_ ? *schema_ : empty;
}

bool operator==(const response_format& a, const response_format& b) noexcept {
    return a.kind_ == b.kind_ && a.name_ == b.name_ && a.description_ == b.description_ &&
           a.strict_ == b.strict_ && a.schema() == b.schema();
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const response_format& format) {
    boost::json::object& o = json.emplace_object();
    o["type"] = kind_name(format.kind());
    if (format.kind() != response_format_kind::json_schema) return;
    o["name"] = format.name();
    o["schema"] = format.schema();
    write_if_not_empty(o, "description", format.description());
    if (format.strict()) o["strict"] = *format.strict();
}

response_format tag_invoke(boost::json::value_to_tag<response_format>,
                           const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "response format");
    const std::string type = read_required_string(o, "type");
    if (type == "text") return response_format::text();
    if (type == "json") return response_format::json();
    if (type != "json_schema")
        fail("/type", "expected \"text\", \"json\" or \"json_schema\", got \"" + type + "\"");
    const boost::json::value* schema = find(o, "schema");
    if (!schema) fail("", "missing required member \"schema\"");
    if (!schema->is_object()) fail_type("/schema", "object", *schema);
    return response_format::json_schema(read_required_string(o, "name"), schema->get_object(),
                                        read_string(o, "description"),
                                        read_optional_bool(o, "strict"));
}

} // namespace forma
