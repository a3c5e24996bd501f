#pragma once

#include <forma/json/json_error.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <string>

namespace forma {

/** Who wrote a chat message: `system()`, `user()`, `assistant()`, `tool()`, or
    any value a provider defines.

    Roles compare case-insensitively (ASCII) because providers disagree on case;
    the spelling given is kept, and JSON holds it as a plain string.
*/
class chat_role {
public:
    /// @throws error if `value` is empty: a role that says nothing is a bug upstream.
    explicit chat_role(std::string value);

    static chat_role system() { return chat_role(std::string("system")); }
    static chat_role user() { return chat_role(std::string("user")); }
    static chat_role assistant() { return chat_role(std::string("assistant")); }
    static chat_role tool() { return chat_role(std::string("tool")); }

    /// The role as given, e.g. "assistant".
    const std::string& value() const noexcept { return value_; }

    friend bool operator==(const chat_role& a, const chat_role& b) noexcept;

private:
    std::string value_;
};

/// Writes the role as its string.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const chat_role& role);
/// @throws json_error unless `json` is a non-empty string.
chat_role tag_invoke(boost::json::value_to_tag<chat_role>, const boost::json::value& json);

} // namespace forma
