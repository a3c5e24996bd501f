#include <forma/model/agent_response_update.hpp>

#include "contents_text.hpp"
#include "json_support.hpp"

namespace forma {

using namespace model_detail;

agent_response_update::agent_response_update(std::optional<forma::chat_role> role, std::string text)
    : role(std::move(role)) {
    contents.emplace_back(text_content(std::move(text)));
}

std::string agent_response_update::text() const { return text_of(contents); }

void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const agent_response_update& update) {
    boost::json::object& o = json.emplace_object();
    if (update.role) o["role"] = boost::json::value_from(*update.role);
    write_if_not_empty(o, "author_name", update.author_name);
    write_if_not_empty(o, "message_id", update.message_id);
    write_if_not_empty(o, "response_id", update.response_id);
    write_if_not_empty(o, "agent_id", update.agent_id);
    write_time(o, "created_at", update.created_at);
    if (update.finish_reason) o["finish_reason"] = boost::json::value_from(*update.finish_reason);
    if (update.continuation_token)
        o["continuation_token"] = boost::json::value_from(*update.continuation_token);
    write_rate_limits(o, update.rate_limits);
    o["contents"] = write_array(update.contents);
    write_metadata(o, update.raw_representation, update.additional_properties);
}

agent_response_update tag_invoke(boost::json::value_to_tag<agent_response_update>,
                                 const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "agent response update");
    agent_response_update update(read_optional<chat_role>(o, "role"),
                                 read_array<content>(o, "contents"));
    update.author_name = read_string(o, "author_name");
    update.message_id = read_string(o, "message_id");
    update.response_id = read_string(o, "response_id");
    update.agent_id = read_string(o, "agent_id");
    update.created_at = read_time(o, "created_at");
    update.finish_reason = read_optional<finish_reason>(o, "finish_reason");
    update.continuation_token = read_optional<continuation_token>(o, "continuation_token");
    update.rate_limits = read_rate_limits(o);
    update.raw_representation = read_value(o, "raw_representation");
    update.additional_properties = read_object(o, "additional_properties");
    return update;
}

} // namespace forma
