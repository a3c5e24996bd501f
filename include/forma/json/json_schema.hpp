#pragma once

#include <forma/json/detail/schema_builder.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/json/schema_options.hpp>

#include <boost/json/object.hpp>

#include <array>

namespace forma {

/** The JSON Schema of `T`, in the dialect `options` selects.

    `T` is any type forma maps: a described struct or enum, bool, an integer,
    a floating point type, std::string, std::optional, std::unique_ptr,
    vector/list/deque/array, a string-keyed map, a std::variant, nested as deep
    as needed. Structs that contain themselves are written with `$defs` and
    `$ref` (`"#"` for the root). Descriptions and constraints come from
    FORMA_DESCRIBE_TYPE and FORMA_DESCRIBE_FIELDS.

    The schema is built once per type, on first use (thread-safe); later calls
    return the same object without allocating.

    @throws schema_error if `options.dialect` is not a schema_dialect value.
*/
template <class T>
const boost::json::object& json_schema(schema_options options = {}) {
    static const std::array<boost::json::object, 2> schemas{
        json_detail::build_schema<T>(schema_dialect::json_schema_2020_12),
        json_detail::build_schema<T>(schema_dialect::openai_strict)};
    const auto index = static_cast<std::size_t>(options.dialect);
    if (index >= schemas.size()) throw schema_error("unknown schema_dialect value");
    return schemas[index];
}

} // namespace forma
