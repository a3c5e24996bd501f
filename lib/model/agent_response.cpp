#include <forma/model/agent_response.hpp>

#include "answer_text.hpp"
#include "joined_response.hpp"
#include "json_support.hpp"

#include <iterator>

namespace forma {

using namespace model_detail;

namespace {

// Tool results and a validation retry's errors end a turn: the answer is what comes after.
bool ends_a_turn(const chat_message& message) noexcept {
    for (const content& c : message.contents)
        if (std::holds_alternative<function_result_content>(c) || std::holds_alternative<output_errors_content>(c))
            return true;
    return false;
}

} // namespace

namespace {

// The answer is the last author's messages since the last turn ended: an orchestration's earlier
// participants answered before it.
std::vector<chat_message>::const_iterator answer_start(const std::vector<chat_message>& messages) noexcept {
    const std::string_view author = messages.empty() ? std::string_view() : std::string_view(messages.back().author_name);
    auto start = messages.end();
    while (start != messages.begin() && !ends_a_turn(*std::prev(start)) && std::prev(start)->author_name == author) --start;
    return start;
}

} // namespace

std::string agent_response<void>::text() const {
    std::string out;
    for (auto it = answer_start(messages); it != messages.end(); ++it) {
        const chat_message& message = *it;
        const std::size_t mark = out.size();
        if (!out.empty()) out += '\n';
        const std::size_t text_start = out.size();
        for (const content& c : message.contents)
            if (const auto* t = std::get_if<text_content>(&c)) out += t->text;
        if (out.size() == text_start) out.resize(mark); // no text: no separator either
    }
    return out;
}

std::optional<std::string_view> model_detail::answer_text_view(const agent_response<>& response) noexcept {
    std::optional<std::string_view> text;
    for (auto it = answer_start(response.messages); it != response.messages.end(); ++it)
        for (const content& c : it->contents)
            if (const auto* t = std::get_if<text_content>(&c)) {
                if (text) return std::nullopt; // joined by text()
                text = t->text;
            }
    return text ? text : std::string_view();
}

std::vector<function_approval_request_content> agent_response<void>::approval_requests() const {
    std::vector<function_approval_request_content> out;
    for (const chat_message& message : messages)
        for (const content& c : message.contents)
            if (const auto* request = std::get_if<function_approval_request_content>(&c)) out.push_back(*request);
    return out;
}

std::vector<agent_response_update> agent_response<void>::to_updates() const {
    std::vector<agent_response_update> updates;
    updates.reserve(messages.size() + 2);

    // Merging takes the response's time from the first update that has one: when
    // that would be a message's and differ, lead with an update that carries it.
    if (is_known_time(created_at)) {
        const chat_message* first_timed = nullptr;
        for (const chat_message& m : messages)
            if (is_known_time(m.created_at)) {
                first_timed = &m;
                break;
            }
        if (!first_timed || first_timed->created_at != created_at) {
            agent_response_update& header = updates.emplace_back();
            header.response_id = response_id;
            header.agent_id = agent_id;
            header.created_at = created_at;
        }
    }

    for (const chat_message& message : messages) {
        agent_response_update& update = updates.emplace_back(message.role, message.contents);
        update.author_name = message.author_name;
        update.message_id = message.message_id;
        update.created_at = message.created_at;
        update.response_id = response_id;
        update.agent_id = agent_id;
    }

    const bool ids_untold = updates.empty() && (!response_id.empty() || !agent_id.empty());
    if (finish_reason || usage || continuation_token || rate_limits || !raw_representation.is_null() ||
        !additional_properties.empty() || ids_untold) {
        agent_response_update& trailer = updates.emplace_back();
        trailer.response_id = response_id;
        trailer.agent_id = agent_id;
        trailer.finish_reason = finish_reason;
        trailer.continuation_token = continuation_token;
        trailer.rate_limits = rate_limits;
        if (usage) trailer.contents.emplace_back(usage_content(*usage));
        trailer.raw_representation = raw_representation;
        trailer.additional_properties = additional_properties;
    }
    return updates;
}

bool operator==(const agent_response<void>& a, const agent_response<void>& b) {
    const auto* ao = a.original_response();
    const auto* bo = b.original_response();
    return a.messages == b.messages && a.response_id == b.response_id && a.agent_id == b.agent_id &&
           a.created_at == b.created_at && a.finish_reason == b.finish_reason && a.usage == b.usage &&
           a.continuation_token == b.continuation_token && a.rate_limits == b.rate_limits &&
           a.raw_representation == b.raw_representation &&
           a.additional_properties == b.additional_properties && (ao && bo ? *ao == *bo : ao == bo);
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const agent_response<void>& response) {
    boost::json::object& o = json.emplace_object();
    o["messages"] = write_array(response.messages);
    write_if_not_empty(o, "response_id", response.response_id);
    write_if_not_empty(o, "agent_id", response.agent_id);
    write_time(o, "created_at", response.created_at);
    if (response.finish_reason) o["finish_reason"] = boost::json::value_from(*response.finish_reason);
    if (response.usage) o["usage"] = boost::json::value_from(*response.usage);
    if (response.continuation_token)
        o["continuation_token"] = boost::json::value_from(*response.continuation_token);
    write_rate_limits(o, response.rate_limits);
    write_metadata(o, response.raw_representation, response.additional_properties);
    if (const auto* original = response.original_response())
        o["original_response"] = boost::json::value_from(*original);
}

agent_response<void> tag_invoke(boost::json::value_to_tag<agent_response<void>>,
                                const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "agent response");
    agent_response<void> response(read_array<chat_message>(o, "messages"));
    response.response_id = read_string(o, "response_id");
    response.agent_id = read_string(o, "agent_id");
    response.created_at = read_time(o, "created_at");
    response.finish_reason = read_optional<finish_reason>(o, "finish_reason");
    response.usage = read_optional<usage_details>(o, "usage");
    response.continuation_token = read_optional<continuation_token>(o, "continuation_token");
    response.rate_limits = read_rate_limits(o);
    response.raw_representation = read_value(o, "raw_representation");
    response.additional_properties = read_object(o, "additional_properties");
    if (auto original = read_optional<agent_response<void>>(o, "original_response"))
        response.set_original_response(std::move(*original));
    return response;
}

namespace model_detail {

void add_response(agent_response<>& out, agent_response<>&& later) {
    for (chat_message& m : later.messages) out.messages.push_back(std::move(m));
    if (!later.response_id.empty()) out.response_id = std::move(later.response_id);
    if (!later.agent_id.empty()) out.agent_id = std::move(later.agent_id);
    if (is_known_time(later.created_at) && !is_known_time(out.created_at)) out.created_at = later.created_at;
    if (later.finish_reason) out.finish_reason = std::move(later.finish_reason);
    if (later.usage) {
        if (out.usage)
            *out.usage += *later.usage;
        else
            out.usage = std::move(later.usage);
    }
    out.continuation_token = std::move(later.continuation_token);
    if (later.rate_limits) out.rate_limits = std::move(later.rate_limits);
    for (auto& property : later.additional_properties) out.additional_properties[property.key()] = property.value();
    out.raw_representation = std::move(later.raw_representation);
}

} // namespace model_detail
} // namespace forma
