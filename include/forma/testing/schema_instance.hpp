#pragma once

#include <forma/json/schema_error.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string_view>

namespace forma::testing {

/** A JSON value valid against `schema`, as a schema-driven model server answers.

    Values are meant to read plausibly for the prompt:

    - A string is a phrase of `prompt`, phrases taken in turn and cycling, starting at
      one chosen by `seed`. Words are runs of letters, digits and UTF-8 sequences,
      joined through inner hyphens and apostrophes ("35-year-old", "O'Brien"). A run of
      capitalised words (ASCII or Latin-1 capitals; at most four) or of lowercase words
      (at most three) with only spaces or tabs between them is one phrase ("John Smith",
      "software engineer"). Stop words ("is", "the", "from", ...) and words holding a
      digit are no phrase and end one; a prompt of only those gives its words. A string
      with a `pattern` or `format` is made from single words instead (below); a string
      shorter than `minLength` is padded with the following words, one longer than
      `maxLength` cut.
    - A number (integer or not) is the first of the prompt's first 64 numbers ("35",
      "-3", "2.5", "1,200"; not the digits of an identifier such as "x86") that fits
      (within the bounds, whole for an integer, a multiple of `multipleOf`) and that no
      other value of the instance took. Else it lies near the middle of its range,
      within a twentieth of the range from the middle, by `seed`. A side without a
      bound makes the range a small one: [0, 20] where the other bound allows it, else
      the 20 next to that bound (two steps wide, for a `multipleOf` above 10).
    - Arrays have `minItems` elements (1 or 2 when unset); objects get every property,
      required or not; `anyOf`, a list of types, `enum`, booleans and array lengths vary
      with `seed`. A nullable value (an `anyOf` or a list of types with a null branch) is
      null one time in four.

    The same schema, prompt and seed give the same value.

    Supported keywords (both dialects forma writes): `type` (a name or a list),
    `properties`, `required`, `additionalProperties` (false, true or a schema, for
    maps), `items`, `minItems`, `maxItems`, `enum`, `const`, `anyOf`, local `$ref`
    (`#` and JSON Pointers such as `#/$defs/name`), `minimum`, `maximum`,
    `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`, `maxLength`,
    `format` (date-time, date, time, duration, email, hostname, ipv4, ipv6, uuid,
    uri; other formats are annotations) and `pattern`. Annotations (`description`,
    `title`, `$schema`, `$defs`, `default`, ...) are ignored.

    Recursion is bounded: below a nesting depth of 3, a nullable value is null, an
    array has only its `minItems` elements and an object only its required members.

    Limits of `pattern`: the next 8 prompt words (as they are, lower-, upper- and
    capitalised) are tried first; then strings generated from the pattern itself (literals,
    classes, `.`, `\d\w\s`, groups, `|`, quantifiers, anchors); each candidate is
    checked with the ECMA-262 matcher. Backreferences and lookaround are not
    generated; when nothing matches, the shortest prompt word is used and the value
    may break the pattern. Searches are bounded, since a pattern may backtrack
    badly: one whose bound (Boost.Regex's, about N·S² + N² steps) passes 2^21 is not
    made, a pattern is not searched again in the instance once a search was too
    complex, and once the bounds of the searches made pass 2^25 (some 300 searches
    of short words) the instance's later pattern strings take the fallback.
    Verdicts are kept per pattern, so strings that share one search a word once.
    A `format` wins over `pattern` and the length limits.

    The schema is read as schema_validator compiles it (one reader of the keywords), so a
    schema the validator refuses is refused here with its reason and schema location: an
    unknown keyword, a malformed keyword value, a non-local `$ref`, a `$ref` cycle.

    @throws schema_error for such a schema; for a keyword this cannot satisfy (`oneOf`,
    `allOf`, `not`, `if`, `prefixItems`, `uniqueItems: true`, `patternProperties`, ...), a
    `$ref` that does not resolve, an empty numeric range, a required member an object
    cannot have, a recursion with no finite instance, or an instance past the size limit
    (2^18 values and code points together, e.g. a huge `minItems`): these name the
    instance path.
*/
boost::json::value make_instance(const boost::json::object& schema, std::string_view prompt,
                                 std::uint64_t seed = 0);

} // namespace forma::testing
