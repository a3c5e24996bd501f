#pragma once

#include <forma/model/detail/case_insensitive_name.hpp>

#include <string>
#include <string_view>

namespace forma {

/** Who wrote a chat message: `system()`, `user()`, `assistant()`, `tool()`, or
    any value a provider defines.

    Roles compare case-insensitively (ASCII) because providers disagree on case;
    the spelling given is kept, and JSON holds it as a plain string.
*/
class chat_role : public model_detail::case_insensitive_name<chat_role> {
public:
    static constexpr std::string_view kind = "chat_role";
    static constexpr std::string_view described_as = "role";

    /// @throws error if `value` is empty: a role that says nothing is a bug upstream.
    explicit chat_role(std::string value) : case_insensitive_name(std::move(value)) {}

    static chat_role system() { return chat_role(std::string("system")); }
    static chat_role user() { return chat_role(std::string("user")); }
    static chat_role assistant() { return chat_role(std::string("assistant")); }
    static chat_role tool() { return chat_role(std::string("tool")); }
};

} // namespace forma
