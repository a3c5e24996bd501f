#pragma once

#include <forma/json/json_error.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <string>
#include <string_view>

namespace forma {

/** Where a long-running run can be resumed or polled from.

    Opaque to callers: the agent or provider that issued it decides what it
    holds (a response id, a cursor, several fields). Callers store it (as JSON,
    or as text with `to_string()`) and pass it back in the run options.
*/
class continuation_token {
public:
    /// @throws error if `value` is null: no token is an empty std::optional instead.
    explicit continuation_token(boost::json::value value);
    /// A token that is a JSON string, e.g. a provider's response id.
    explicit continuation_token(std::string_view text) : value_(text) {}
    explicit continuation_token(const char* text) : value_(text) {}

    /// What the issuer put in.
    const boost::json::value& value() const noexcept { return value_; }

    /// The token as compact JSON text, for stores that only hold strings. It is valid UTF-8: a
    /// byte of the token's strings that does not start valid UTF-8 is written as U+FFFD.
    std::string to_string() const;

    /// Reads back a token written by `to_string()`.
    /// @throws json_error if `text` is not JSON or is `null`.
    static continuation_token parse(std::string_view text);

    friend bool operator==(const continuation_token&, const continuation_token&) = default;

private:
    boost::json::value value_;
};

/// Writes the token's value as it is.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const continuation_token& token);
/// @throws json_error if `json` is null.
continuation_token tag_invoke(boost::json::value_to_tag<continuation_token>,
                              const boost::json::value& json);

} // namespace forma
