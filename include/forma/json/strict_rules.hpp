#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>

namespace forma {

/** Why `schema` breaks the rules of OpenAI's strict mode (Structured Outputs and
    strict function calling), or nullopt when it keeps them all: an object root;
    every object closed (`additionalProperties: false`) with all its properties
    required; only the supported keywords (type, properties, required,
    additionalProperties, items, enum, const, anyOf, $ref alone, $defs,
    description, title, pattern, the supported formats, the numeric bounds,
    multipleOf, minItems, maxItems); at most 10 levels of nested objects and
    5000 properties in all.

    json_schema<T>() in the openai_strict dialect always keeps them. The reason
    names the offending keyword by JSON Pointer, e.g.
    `/properties/tags: "minItems" ... ` or `/properties/address: "required" lacks "zip"`.
*/
std::optional<std::string> openai_strict_violation(const boost::json::object& schema);

} // namespace forma
