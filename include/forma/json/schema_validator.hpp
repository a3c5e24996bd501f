#pragma once

#include <forma/json/json_error.hpp>
#include <forma/json/schema_error.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma {

namespace json_detail {
class compiled_schema; // one node of checks per subschema (lib/json/compiled_schema.hpp)
}

/// One way an instance breaks a schema, as schema_validator::violations() reports it.
struct schema_violation {
    /// JSON Pointer (RFC 6901) to the offending value in the instance ("" is the root).
    std::string path;
    /// JSON Pointer to the keyword in the schema that failed, e.g. "/properties/age/maximum".
    std::string schema_path;
    /// What is wrong, without the location: `150 is greater than the maximum 100`.
    std::string reason;

    bool operator==(const schema_violation&) const = default;
};

/// Limits of a schema_validator (fuzzed input must fail cleanly, not exhaust the stack).
struct schema_validator_options {
    /// Arrays and objects in an instance nested deeper than this are a violation, as
    /// parse_options::max_depth is for from_json. Subschemas may nest (and `$ref`s chain)
    /// 8 times as deep before the schema or the validation is refused.
    std::size_t max_depth = 64;
    /// Subschema checks per validation. Nested `anyOf`s over `$ref`s can multiply the work
    /// exponentially; past this, validation stops with a violation (the value counts as
    /// invalid) instead of running for minutes. Plenty for an instance of 100,000 values.
    std::size_t max_steps = 10'000'000;
};

/** A JSON Schema (2020-12) compiled once, to check JSON values against it.

    For schemas known only at run time: read from a file, received from a user.
    Construction checks the whole schema; validation then only reads it, so one
    validator may be used from many threads at once. Copies share the compiled schema.

    Assertions checked: `type` (a name or a list; 1.0 is an integer), `enum`, `const`,
    `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`,
    `minLength`, `maxLength` (in code points), `pattern` (ECMA-262 as with its `u`
    flag: an unanchored search over code points; `^` and `$` hold only at the
    string's ends, and `.` does not match a line break), `format` (date-time, date, time, duration,
    email, hostname, ipv4, ipv6, uuid, uri; other formats are annotations),
    `items`, `prefixItems`, `contains`, `minContains`, `maxContains`, `minItems`,
    `maxItems`, `uniqueItems`, `properties`, `patternProperties`,
    `additionalProperties`, `propertyNames`, `required`, `minProperties`,
    `maxProperties`, `dependentRequired`, `dependentSchemas`, `allOf`, `anyOf`,
    `oneOf`, `not`, `if`/`then`/`else`, and local `$ref` (`#` and JSON Pointers such
    as `#/$defs/name`) with siblings. Annotations (`title`, `description`,
    `default`, `examples`, `$comment`, `deprecated`, `readOnly`, `writeOnly`,
    `content*`, `x-` extensions, `$schema`, `$id` at the root) are ignored.
    Numbers compare by value: 1 equals 1.0 in `enum`, `const` and `uniqueItems`.

    Every keyword that is not in those lists is a schema_error, never silently
    ignored: `unevaluatedProperties`, `unevaluatedItems`, `$dynamicRef`, `$anchor`,
    a `$ref` to another document, a misspelt keyword.

    Work is bounded (see schema_validator_options). Patterns run in Boost.Regex,
    which does not recurse; a match it gives up on as too complex is a violation.
*/
class schema_validator {
public:
    /** Compiles `schema`, an object or a boolean schema.

        @throws schema_error naming the keyword and its JSON Pointer in the schema when
        a keyword is not supported, its value is malformed (`"minimum": "x"`, an invalid
        `pattern`), a `$ref` does not resolve, `$ref`s form a cycle that never descends
        into the instance (`{"$ref": "#"}`), or subschemas nest too deep.
    */
    explicit schema_validator(const boost::json::value& schema,
                              const schema_validator_options& options = {});
    explicit schema_validator(const boost::json::object& schema,
                              const schema_validator_options& options = {});

    /** Parses JSON Schema text and compiles it.

        @throws schema_error when the text is not valid JSON (with line and column),
        or for the reasons the constructor gives.
    */
    static schema_validator from_text(std::string_view schema_text,
                                      const schema_validator_options& options = {});

    /** Checks `instance`; does nothing when it is valid.

        @throws json_error for the first violation found, with its `path()` and a
        message such as `at /age: 150 is greater than the maximum 100`.
    */
    void validate(const boost::json::value& instance) const;

    /// validate() without throwing: the first violation as a json_error, if any.
    boost::system::result<void, json_error> try_validate(const boost::json::value& instance) const;

    /** Every violation, in document order, up to `limit` of them; empty when valid.

        Inside `anyOf`, `oneOf`, `not` and `if`, a failing alternative is summed up in
        its parent's single violation rather than listed.
    */
    std::vector<schema_violation> violations(const boost::json::value& instance,
                                             std::size_t limit = 100) const;

    /// Whether `instance` is valid (stops at the first violation).
    bool is_valid(const boost::json::value& instance) const;

    /// The schema as given.
    const boost::json::value& schema() const noexcept;

private:
    std::shared_ptr<const json_detail::compiled_schema> compiled_;
};

} // namespace forma
