#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/chat_role.hpp>
#include <forma/model/content.hpp>
#include <forma/model/continuation_token.hpp>
#include <forma/model/finish_reason.hpp>
#include <forma/model/rate_limits.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace forma {

/** One piece of a streamed response, as `run_streaming` yields it.

    Pieces are merged into an agent_response with to_agent_response (or an
    agent_response_builder, one at a time); empty fields mean "no change".
*/
class agent_response_update {
public:
    agent_response_update() = default;
    /// An update holding one text_content.
    agent_response_update(std::optional<forma::chat_role> role, std::string text);
    agent_response_update(std::optional<forma::chat_role> role, std::vector<content> contents)
        : role(std::move(role)), contents(std::move(contents)) {}

    /// The text contents joined with no separator; secondary output never appears in it.
    std::string text() const;

    /// The role of the message this update belongs to, when the provider said.
    std::optional<forma::chat_role> role;
    std::string author_name;
    std::vector<content> contents;
    std::string response_id;
    std::string message_id;
    std::string agent_id;
    std::optional<std::chrono::system_clock::time_point> created_at;
    std::optional<forma::finish_reason> finish_reason;
    /// Where the run can be resumed from after this update; none once it is complete.
    std::optional<forma::continuation_token> continuation_token;
    /// What the provider's headers said about its rate limits: on a stream's first update.
    std::optional<forma::rate_limits> rate_limits;
    /// The provider's own JSON for this update (e.g. one stream chunk), or null.
    boost::json::value raw_representation;
    /// Provider fields forma has no member for, by name.
    boost::json::object additional_properties;

    friend bool operator==(const agent_response_update&, const agent_response_update&) = default;
};

/// Writes an object with the members that are set; "contents" always.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const agent_response_update& update);
/// @throws json_error naming the offending member.
agent_response_update tag_invoke(boost::json::value_to_tag<agent_response_update>,
                                 const boost::json::value& json);

} // namespace forma
