#pragma once

#include <forma/json/schema_options.hpp>
#include <forma/reflect/field_info.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail {

/// An address unique to each type, to recognise types at run time without RTTI.
template <class T>
inline constexpr char type_tag = 0;
template <class T>
constexpr const void* type_id() noexcept {
    return &type_tag<T>;
}

/** The state of building one schema: the dialect, which described structs are
    recursive (found in a first pass), and the `$defs` written so far.
*/
class schema_context {
public:
    explicit schema_context(schema_dialect dialect) noexcept : dialect_(dialect) {}

    bool strict() const noexcept { return dialect_ == schema_dialect::openai_strict; }

    // First pass: recursion discovery.
    /// False when the struct is already being visited (then it is recursive) or was visited.
    bool begin_visit(const void* id);
    void end_visit(const void* id);
    bool is_recursive(const void* id) const { return recursive_.count(id) != 0; }

    // Second pass: definitions of recursive structs.
    /// The `$defs` name of a type; `created` is true the first time it is asked for.
    std::string definition_name(const void* id, std::string_view preferred, bool& created);
    void define(const std::string& name, boost::json::value schema);
    boost::json::object& definitions() noexcept { return definitions_; }

private:
    schema_dialect dialect_;
    std::vector<const void*> stack_;
    std::set<const void*> visited_;
    std::set<const void*> recursive_;
    std::map<const void*, std::string> names_;
    std::set<std::string> used_names_;
    boost::json::object definitions_;
};

// Non-template pieces of schema building (lib/json/schema_keywords.cpp).
boost::json::object integer_schema(bool is_signed, std::size_t size);
boost::json::value nullable_schema(boost::json::value inner);
boost::json::value string_map_schema(boost::json::value value_schema, const schema_context& c);
boost::json::value reference_schema(std::string_view name);
/// The schema of any JSON value, `{}`. @throws schema_error in the strict dialect, which has
/// none: OpenAI's strict mode wants a type for every value and every member of every object.
boost::json::value any_value_schema(const schema_context& c);

/// Adds the number, string and item keywords of `info` that apply to a schema of
/// `kind` ("integer", "number", "string", "array"). In the strict dialect, keywords
/// outside its subset are written into `notes`, for the description.
void apply_keywords(boost::json::object& schema, std::string_view kind, const field_info& info,
                    const schema_context& c, std::string& notes);

/// Sets "description" from the text and the notes; a `$ref` in the strict dialect
/// gets none, as OpenAI allows no keyword beside it.
void describe(boost::json::value& schema, std::string_view description, const std::string& notes,
              const schema_context& c);

/// The finished root: `$schema` first (2020-12 only), then the body, then `$defs`.
boost::json::object finish_root(boost::json::value body, schema_context& c);

} // namespace forma::json_detail
