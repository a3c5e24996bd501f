#pragma once

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <string>
#include <string_view>

namespace forma::model_detail {

/// `value`, or forma::error "a <kind> cannot be empty".
std::string nonempty_name(std::string value, std::string_view kind);
/// The string `json` holds; json_error "expected non-empty <described_as> string" otherwise.
std::string read_nonempty_name(const boost::json::value& json, std::string_view described_as);
bool ascii_iequals(std::string_view a, std::string_view b) noexcept;

/** A name from an open set that providers extend (a role, a finish reason): never empty,
    equal to another spelled in another case (ASCII), kept and written to JSON as given.
    `Derived` names itself with `kind` (in errors about its value) and `described_as`
    (in errors about its JSON).
*/
template <class Derived>
class case_insensitive_name {
public:
    /// The name as given, e.g. "assistant".
    const std::string& value() const noexcept { return value_; }

    friend bool operator==(const Derived& a, const Derived& b) noexcept {
        return ascii_iequals(a.value(), b.value());
    }
    /// Writes the name as its string.
    friend void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const Derived& name) {
        json = name.value();
    }
    /// @throws json_error unless `json` is a non-empty string.
    friend Derived tag_invoke(boost::json::value_to_tag<Derived>, const boost::json::value& json) {
        return Derived(read_nonempty_name(json, Derived::described_as));
    }

protected:
    explicit case_insensitive_name(std::string value) : value_(nonempty_name(std::move(value), Derived::kind)) {}

private:
    std::string value_;
};

} // namespace forma::model_detail
