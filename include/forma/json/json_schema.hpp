#pragma once

#include <forma/json/detail/schema_builder.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/json/schema_options.hpp>

#include <boost/json/object.hpp>

namespace forma {

/** The JSON Schema of `T`, in the dialect `options` selects.

    `T` is any type forma maps: a described struct or enum, bool, an integer,
    a floating point type, std::string, std::optional, std::unique_ptr,
    vector/list/deque/array, a string-keyed map, a std::variant, boost::json::value
    (any JSON value: `{}`, which the strict dialect has not), nested as deep
    as needed. Structs that contain themselves are written with `$defs` and
    `$ref` (`"#"` for the root). Descriptions and constraints come from
    FORMA_DESCRIBE_TYPE and FORMA_DESCRIBE_FIELDS.

    The schema is built once per type, on first use (thread-safe); later calls
    return the same object without allocating.

    @throws schema_error if `options.dialect` is not a schema_dialect value, or in the
    OpenAI strict dialect for a T holding a boost::json::value (any JSON value), which that
    dialect cannot describe (the next call tries again).
*/
template <class T>
const boost::json::object& json_schema(schema_options options = {}) {
    // One static per dialect: a T that one dialect cannot describe still has the other's.
    switch (options.dialect) {
    case schema_dialect::json_schema_2020_12: {
        static const boost::json::object schema = json_detail::build_schema<T>(schema_dialect::json_schema_2020_12);
        return schema;
    }
    case schema_dialect::openai_strict: {
        static const boost::json::object schema = json_detail::build_schema<T>(schema_dialect::openai_strict);
        return schema;
    }
    }
    throw schema_error("unknown schema_dialect value");
}

} // namespace forma
