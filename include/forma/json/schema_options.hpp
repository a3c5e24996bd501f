#pragma once

namespace forma {

/// The JSON Schema dialect that json_schema<T>() writes.
enum class schema_dialect {
    /// Standard JSON Schema 2020-12: `$schema` set, optional members absent from
    /// `required`, nullable values as `anyOf` with `{"type":"null"}`.
    json_schema_2020_12,
    /// The subset OpenAI accepts with `strict: true`: every object closed and all its
    /// properties required (optional ones nullable), no keyword outside the documented
    /// subset (others are described in `description`), string-keyed maps as arrays of
    /// `{"key","value"}` pairs, `$ref` without sibling keys.
    openai_strict,
};

/// How json_schema<T>() writes a schema: `forma::json_schema<T>({.dialect = schema_dialect::openai_strict})`.
struct schema_options {
    schema_dialect dialect = schema_dialect::json_schema_2020_12;
};

} // namespace forma
