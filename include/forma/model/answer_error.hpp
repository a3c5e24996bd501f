#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/refusal_error.hpp>

#include <boost/assert/source_location.hpp>

#include <optional>
#include <utility>
#include <variant>

namespace forma {

/** Why an answer could not be read as the requested type, as a value: exactly one of
    the three errors `result()` throws (refusal_error, output_truncated_error,
    json_error). `try_result()` and `try_deserialize()` hold it.

        auto r = response.try_result();
        if (!r) {
            if (auto e = r.error().as<forma::json_error>()) std::cout << e->path();
            else std::cout << r.error().what(); // a refusal, or the token limit
        }

    `as<E>()` gives the one you handle, `what()` says what went wrong, `variant()` is
    for std::visit, `rethrow()` throws it as its own type. (In a template where the
    response's type depends on a parameter, the language asks for
    `r.error().template as<E>()`.)
*/
class answer_error {
public:
    using variant_type = std::variant<json_error, refusal_error, output_truncated_error>;

    /// A json_error(), as boost::system::result requires of an error type.
    answer_error() = default;
    answer_error(json_error error) : error_(std::move(error)) {}
    answer_error(refusal_error error) : error_(std::move(error)) {}
    answer_error(output_truncated_error error) : error_(std::move(error)) {}

    /// A copy of the error when it is an E, else nothing. A copy, since
    /// `boost::system::result::error()` gives the error by value: a pointer into it would dangle.
    template <class E>
    std::optional<E> as() const {
        if (const E* e = std::get_if<E>(&error_)) return *e;
        return std::nullopt;
    }
    /// The alternatives, for std::visit; of a temporary (`r.error().variant()`) by value.
    const variant_type& variant() const& noexcept { return error_; }
    variant_type variant() && { return std::move(error_); }
    /// The error as its common base.
    const forma::error& base() const noexcept;
    const char* what() const noexcept { return base().what(); }
    [[noreturn]] void rethrow() const;

private:
    variant_type error_;
};

/// Throws the error `e` holds, as its own type: what `result.value()` does on an error.
[[noreturn]] void throw_exception_from_error(const answer_error& e, const boost::source_location&);

} // namespace forma
