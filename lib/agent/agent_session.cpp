#include <forma/agent/agent_session.hpp>

#include <forma/json/json_error.hpp>

#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

namespace forma {

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const agent_session& session) {
    boost::json::object o{{"id", session.id.str()},
                          {"history", boost::json::value_from(session.history)},
                          {"state", session.state}};
    if (session.version != 0) o["version"] = session.version;
    json = std::move(o);
}

agent_session tag_invoke(boost::json::value_to_tag<agent_session>, const boost::json::value& json) {
    const auto* object = json.if_object();
    if (!object) throw json_error("", "an agent session must be a JSON object");
    agent_session session;
    if (const auto* id = object->if_contains("id")) {
        if (!id->is_string()) throw json_error("/id", "expected string");
        session.id = session_id(std::string(id->as_string()));
    }
    if (const auto* history = object->if_contains("history")) {
        if (!history->is_array()) throw json_error("/history", "expected array");
        std::size_t i = 0;
        for (const auto& message : history->as_array()) {
            try {
                session.history.push_back(boost::json::value_to<chat_message>(message));
            } catch (const json_error& e) {
                throw json_error("/history/" + std::to_string(i) + e.path(), e.reason());
            }
            ++i;
        }
    }
    if (const auto* state = object->if_contains("state")) {
        if (!state->is_object()) throw json_error("/state", "expected object");
        session.state = state->as_object();
    }
    if (const auto* version = object->if_contains("version")) {
        if (version->is_uint64()) {
            session.version = version->get_uint64();
        } else if (version->is_int64() && version->get_int64() >= 0) {
            session.version = static_cast<std::uint64_t>(version->get_int64());
        } else {
            throw json_error("/version", "expected a non-negative integer");
        }
    }
    return session;
}

} // namespace forma
