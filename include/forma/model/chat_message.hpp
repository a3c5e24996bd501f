#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/chat_role.hpp>
#include <forma/model/content.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/** One message of a conversation: who wrote it and what it holds. */
class chat_message {
public:
    /// An empty message from the user.
    chat_message() = default;
    /// A message holding one text_content.
    chat_message(forma::chat_role role, std::string text);
    chat_message(forma::chat_role role, std::vector<content> contents)
        : role(std::move(role)), contents(std::move(contents)) {}

    /// The text contents joined with no separator; reasoning, tool activity and
    /// other secondary output never appear in it.
    std::string text() const;

    forma::chat_role role = forma::chat_role::user();
    /// The participant's name when several share a role (an agent's name); may be empty.
    std::string author_name;
    /// The provider's id for the message; may be empty.
    std::string message_id;
    /// When the message was made; null (or the epoch) when unknown.
    std::optional<std::chrono::system_clock::time_point> created_at;
    std::vector<content> contents;

    friend bool operator==(const chat_message&, const chat_message&) = default;
};

/// Writes `{"role", "author_name"?, "message_id"?, "created_at"?, "contents"}`;
/// times are RFC 3339 UTC strings with as many fraction digits as needed.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const chat_message& message);
/// @throws json_error naming the offending member, e.g. "at /contents/2/type: ...".
chat_message tag_invoke(boost::json::value_to_tag<chat_message>, const boost::json::value& json);

} // namespace forma
