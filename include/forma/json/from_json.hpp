#pragma once

#include <forma/json/detail/value_reader.hpp>
#include <forma/json/json_error.hpp>
#include <forma/json/parse_options.hpp>

#include <boost/system/result.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <vector>

namespace forma {

/** Parses JSON text straight into a `T`, without building a DOM.

    Checks everything: JSON grammar, UTF-8, nesting depth, duplicate members,
    the shape of `T` (required members present, types and ranges right) and the
    constraints declared with FORMA_DESCRIBE_FIELDS. Members `T` does not have
    are skipped unless `options.reject_unknown_members` is set; optional members
    may be absent or null.

    @returns the value, or the json_error saying what is wrong and where.
    @throws schema_error (even here) when a `pattern` declared for T is not a
    valid regular expression: a bug in T's declaration, found on first use.
*/
template <class T>
boost::system::result<T, json_error> try_from_json(std::string_view json,
                                                   const parse_options& options = {}) {
    static_assert(std::is_default_constructible_v<T>, "from_json needs a default-constructible T");
    json_detail::reader r(json, options);
    T value{};
    if (!json_detail::read_document(r, value)) return r.take_error();
    return value;
}

/** Parses JSON text straight into a `T` (see try_from_json).

    @throws json_error with `path()` (a JSON Pointer) and a message such as
    `at /age: expected integer, got string "x"`.
    @throws schema_error when a `pattern` declared for T is not a valid regular expression.
*/
template <class T>
T from_json(std::string_view json, const parse_options& options = {}) {
    static_assert(std::is_default_constructible_v<T>, "from_json needs a default-constructible T");
    json_detail::reader r(json, options);
    T value{};
    if (!json_detail::read_document(r, value)) throw r.take_error();
    return value;
}

namespace json_detail {

/// from_json_errors that keeps what it read: with a `limit` above 0, `value` is a whole T
/// when no error is listed.
template <class T>
std::vector<json_error> read_listing_errors(std::string_view json, T& value, const parse_options& options,
                                            std::size_t limit) {
    std::vector<json_error> errors;
    if (limit == 0) return errors;
    reader r(json, options);
    r.collect_into(errors, limit);
    if (!read_document(r, value) && r.has_error()) errors.push_back(r.take_error());
    return errors;
}

} // namespace json_detail

/** Every error of `json` read as a `T`, in document order, up to `limit`; empty when
    it reads. For telling a model all that is wrong with its answer at once.

    The first is the error try_from_json gives. Past a value of the wrong type or a
    broken constraint reading goes on, and each missing required member is listed;
    a syntax error (invalid JSON, too deep, a duplicate member) ends the list, since
    nothing after it can be read reliably. Inside a std::variant the alternatives are
    tried whole: a value no alternative takes is one error.
*/
template <class T>
std::vector<json_error> from_json_errors(std::string_view json, const parse_options& options = {},
                                         std::size_t limit = 20) {
    static_assert(std::is_default_constructible_v<T>, "from_json needs a default-constructible T");
    T value{};
    return json_detail::read_listing_errors(json, value, options, limit);
}

} // namespace forma
