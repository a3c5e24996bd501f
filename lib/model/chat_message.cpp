#include <forma/model/chat_message.hpp>

#include "contents_text.hpp"
#include "json_support.hpp"

namespace forma {

using namespace model_detail;

chat_message::chat_message(forma::chat_role role, std::string text) : role(std::move(role)) {
    contents.emplace_back(text_content(std::move(text)));
}

std::string chat_message::text() const { return text_of(contents); }

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const chat_message& message) {
    boost::json::object& o = json.emplace_object();
    o["role"] = boost::json::value_from(message.role);
    write_if_not_empty(o, "author_name", message.author_name);
    write_if_not_empty(o, "message_id", message.message_id);
    write_time(o, "created_at", message.created_at);
    o["contents"] = write_array(message.contents);
}

chat_message tag_invoke(boost::json::value_to_tag<chat_message>, const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "chat message");
    chat_message message(read_required<chat_role>(o, "role"), read_array<content>(o, "contents"));
    message.author_name = read_string(o, "author_name");
    message.message_id = read_string(o, "message_id");
    message.created_at = read_time(o, "created_at");
    return message;
}

} // namespace forma
