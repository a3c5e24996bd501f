#include <forma/agent/session_id.hpp>
#include <forma/json/json_error.hpp>

namespace forma {

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const session_id& id) {
    json = boost::json::string(id.str());
}

session_id tag_invoke(boost::json::value_to_tag<session_id>, const boost::json::value& json) {
    if (!json.is_string()) throw json_error("", "a session id must be a JSON string");
    return session_id(std::string(json.as_string()));
}

} // namespace forma
