#pragma once

#include <forma/json/json_schema.hpp>
#include <forma/model/response_format.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/type_name.hpp>

#include <boost/json/object.hpp>

namespace forma {
namespace agent_detail {

/// `{"type":"object","properties":{"data":<schema>},"required":["data"],"additionalProperties":false}`,
/// with `$defs` moved up to the wrapper (their `#/$defs/...` references stay valid).
boost::json::object wrap_in_data_object(const boost::json::object& schema);

} // namespace agent_detail

/// Whether run<T> wraps T's schema as `{"data": ...}`: its root is not an object
/// (numbers, strings, enums, arrays, optionals, and maps, which strict mode writes as arrays).
template <class T>
bool structured_format_wraps() {
    static const bool wraps = [] {
        const auto* type = json_schema<T>({.dialect = schema_dialect::openai_strict}).if_contains("type");
        return !(type && *type == "object");
    }();
    return wraps;
}

/** The response format run<T> sends: T's schema in OpenAI's strict dialect,
    named schema_name<T>(), strict mode on, wrapped in `{"data": ...}` when its
    root is not an object. Built once per T.
*/
template <class T>
const response_format& structured_format() {
    static const response_format format = [] {
        const auto& schema = json_schema<T>({.dialect = schema_dialect::openai_strict});
        const std::string description(reflect::type_info_of<T>().description);
        if (!structured_format_wraps<T>())
            return response_format::json_schema(std::string(schema_name<T>()), schema, description, true);
        return response_format::json_schema(std::string(schema_name<T>()),
                                            agent_detail::wrap_in_data_object(schema), description, true);
    }();
    return format;
}

} // namespace forma
