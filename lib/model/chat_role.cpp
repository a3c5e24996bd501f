#include <forma/model/chat_role.hpp>

#include <forma/error.hpp>

#include "../text/ascii.hpp"
#include "json_support.hpp"

namespace forma {

chat_role::chat_role(std::string value) : value_(std::move(value)) {
    if (value_.empty()) throw error("a chat_role cannot be empty");
}

bool operator==(const chat_role& a, const chat_role& b) noexcept {
    return text_detail::iequals(a.value_, b.value_);
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const chat_role& role) {
    json = role.value();
}

chat_role tag_invoke(boost::json::value_to_tag<chat_role>, const boost::json::value& json) {
    if (!json.is_string() || json.get_string().empty())
        model_detail::fail_type("", "non-empty role string", json);
    return chat_role(std::string(json.get_string()));
}

} // namespace forma
