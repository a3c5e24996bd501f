#pragma once

#include <forma/json/json_schema.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/json/schema_options.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/type_name.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace forma {

/// Which shape a response_format asks for.
enum class response_format_kind {
    text,        ///< free text
    json,        ///< any JSON value
    json_schema, ///< JSON matching the format's schema
};

/** What shape the model's answer must take: free text, any JSON, or JSON
    matching a named schema.

    A caller's schema is passed to the provider unchanged (never wrapped or
    rewritten). Copies are cheap: the schema is shared, not copied.
*/
class response_format {
public:
    /// Free text: what a model gives by default.
    static response_format text() { return response_format(response_format_kind::text); }
    /// Any JSON; the model chooses the shape.
    static response_format json() { return response_format(response_format_kind::json); }

    /** JSON matching `schema`.

        @param name identifies the schema to the provider; must match
               `^[A-Za-z0-9_-]{1,64}$`.
        @param strict asks the provider to enforce the schema exactly (OpenAI's
               strict mode, which accepts a subset of JSON Schema); null leaves
               it to the provider.
        The format keeps `schema` in memory of its own (Boost.JSON's default resource),
        whatever resource the object given was made with.
        @throws schema_error if `name` is not a valid name.
    */
    static response_format json_schema(std::string name, boost::json::object schema,
                                       std::string description = {},
                                       std::optional<bool> strict = std::nullopt);

    /** JSON matching the schema in `schema_text`, for schemas with no C++ type.

        @throws schema_error if `name` is not a valid name, or `schema_text` is
        not valid JSON (the message gives line and column) or not a JSON object.
    */
    static response_format json_schema(std::string name, std::string_view schema_text,
                                       std::string description = {},
                                       std::optional<bool> strict = std::nullopt);
    static response_format json_schema(std::string name, const char* schema_text,
                                       std::string description = {},
                                       std::optional<bool> strict = std::nullopt) {
        return json_schema(std::move(name), std::string_view(schema_text), std::move(description),
                           strict);
    }

    /** The format for an answer of type T, as run<T> asks for it: JSON matching
        `forma::json_schema<T>()`, named `forma::schema_name<T>()` and described by
        T's FORMA_DESCRIBE_TYPE description. A root that is not an object (numbers,
        strings, enums, arrays, optionals, and maps, which the strict dialect writes as
        arrays) is wrapped as `{"data": ...}` (wraps<T>()), since providers take object
        roots only; agent_response<T> reads such an answer's `data`.

        With `strict` (the default) the schema is written in the openai_strict
        dialect and strict mode is requested; otherwise it is standard JSON
        Schema 2020-12 and strict mode is turned off. Built once per T and
        mode; later calls only copy a name and a shared pointer.
    */
    template <class T>
    static response_format for_type(bool strict = true) {
        static const response_format strict_format = build_for_type<T>(true);
        static const response_format standard_format = build_for_type<T>(false);
        return strict ? strict_format : standard_format;
    }

    /// Whether for_type<T>() wraps T's schema as `{"data": ...}`: its strict schema's root is not an object.
    template <class T>
    static bool wraps() {
        static const bool wrapped = [] {
            const auto* type = forma::json_schema<T>({.dialect = schema_dialect::openai_strict}).if_contains("type");
            return !(type && *type == "object");
        }();
        return wrapped;
    }

    response_format_kind kind() const noexcept { return kind_; }
    /// The schema's name; empty unless kind() is json_schema.
    const std::string& name() const noexcept { return name_; }
    /// The schema; empty unless kind() is json_schema.
    const boost::json::object& schema() const noexcept;
    const std::string& description() const noexcept { return description_; }
    const std::optional<bool>& strict() const noexcept { return strict_; }

    friend bool operator==(const response_format& a, const response_format& b) noexcept;

private:
    explicit response_format(response_format_kind kind) : kind_(kind) {}

    template <class T>
    static response_format build_for_type(bool strict) {
        const schema_options options{.dialect = strict ? schema_dialect::openai_strict
                                                       : schema_dialect::json_schema_2020_12};
        const boost::json::object& schema = forma::json_schema<T>(options);
        return json_schema(std::string(forma::schema_name<T>()), wraps<T>() ? wrap_in_data_object(schema) : schema,
                           std::string(reflect::type_info_of<T>().description), strict);
    }

    /// `{"type":"object","properties":{"data":<schema>},"required":["data"],"additionalProperties":false}`,
    /// with `$schema` and `$defs` moved up to the wrapper (`#/$defs/...` references stay valid).
    static boost::json::object wrap_in_data_object(const boost::json::object& schema);

    response_format_kind kind_;
    std::string name_;
    std::shared_ptr<const boost::json::object> schema_;
    std::string description_;
    std::optional<bool> strict_;
};

/** Writes `{"type":"text"}`, `{"type":"json"}`, or
    `{"type":"json_schema","name","schema","description"?,"strict"?}`.
*/
void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const response_format& format);
/// @throws json_error naming the offending member; schema_error for an invalid name.
response_format tag_invoke(boost::json::value_to_tag<response_format>,
                           const boost::json::value& json);

} // namespace forma
