#include <forma/model/agent_response_builder.hpp>

#include "json_support.hpp"

namespace forma {
namespace {

using model_detail::is_known_time;

// Both say something and they disagree: an empty value is "no change".
bool conflicts(const std::string& update_value, const std::string& message_value) noexcept {
    return !update_value.empty() && !message_value.empty() && update_value != message_value;
}

// Appends `incoming` to the message, merging it into the last content when both
// are text, both refusals (streamed in pieces too), or both reasoning and the last
// has no protected data yet.
template <class Content>
void append_content(std::vector<content>& contents, Content&& incoming) {
    if (!contents.empty()) {
        content& last = contents.back();
        if (auto* text = std::get_if<text_content>(&last)) {
            if (const auto* more = std::get_if<text_content>(&incoming)) {
                text->text += more->text;
                text->raw_representation = nullptr; // it described only the first piece
                return;
            }
        } else if (auto* refusal = std::get_if<refusal_content>(&last)) {
            if (const auto* more = std::get_if<refusal_content>(&incoming)) {
                refusal->refusal += more->refusal;
                refusal->raw_representation = nullptr;
                return;
            }
        } else if (auto* reasoning = std::get_if<text_reasoning_content>(&last)) {
            const auto* more = std::get_if<text_reasoning_content>(&incoming);
            if (more && (!reasoning->protected_data || reasoning->protected_data->empty())) {
                reasoning->text += more->text;
                if (more->protected_data) reasoning->protected_data = more->protected_data;
                reasoning->raw_representation = nullptr;
                return;
            }
        }
    }
    contents.push_back(std::forward<Content>(incoming));
}

} // namespace

void agent_response_builder::add(const agent_response_update& update) { add_update(update); }

void agent_response_builder::add(agent_response_update&& update) { add_update(std::move(update)); }

template <class Update>
void agent_response_builder::add_update(Update&& update) {
    // Members are taken with std::forward<Update>(update).member: moved from an
    // rvalue update, copied from an lvalue one. Each member is taken once.
    agent_response<>& r = response_;

    if (!update.response_id.empty()) r.response_id = std::forward<Update>(update).response_id;
    if (!update.agent_id.empty()) r.agent_id = std::forward<Update>(update).agent_id;
    if (update.finish_reason) r.finish_reason = std::forward<Update>(update).finish_reason;
    if (is_known_time(update.created_at) && !is_known_time(r.created_at))
        r.created_at = update.created_at;
    r.continuation_token = std::forward<Update>(update).continuation_token;
    if (update.rate_limits) r.rate_limits = std::forward<Update>(update).rate_limits;
    for (const auto& property : update.additional_properties)
        r.additional_properties[property.key()] = property.value();

    // Usage goes to the response; anything else decides whether a message is involved.
    bool has_message_content = false;
    for (const content& c : update.contents) {
        if (const auto* usage = std::get_if<usage_content>(&c)) {
            if (r.usage)
                *r.usage += usage->details;
            else
                r.usage = usage->details;
        } else {
            has_message_content = true;
        }
    }
    if (!has_message_content && !update.role && update.author_name.empty() &&
        update.message_id.empty())
        return;

    chat_message* message = r.messages.empty() ? nullptr : &r.messages.back();
    if (message && (conflicts(update.message_id, message->message_id) ||
                    conflicts(update.author_name, message->author_name) ||
                    (update.role && *update.role != message->role)))
        message = nullptr;
    if (!message)
        message = &r.messages.emplace_back(update.role ? *update.role : chat_role::assistant(),
                                           std::vector<content>{});
    if (message->message_id.empty() && !update.message_id.empty())
        message->message_id = std::forward<Update>(update).message_id;
    if (message->author_name.empty() && !update.author_name.empty())
        message->author_name = std::forward<Update>(update).author_name;
    if (is_known_time(update.created_at) && !is_known_time(message->created_at))
        message->created_at = update.created_at;

    if (!has_message_content) return;
    auto&& contents = std::forward<Update>(update).contents;
    if constexpr (!std::is_lvalue_reference_v<Update>) {
        if (message->contents.empty() && contents.size() == 1) { // nothing to merge: the vector is taken whole
            message->contents = std::move(contents);
            return;
        }
    }
    for (auto&& c : contents) {
        if (std::holds_alternative<usage_content>(c)) continue;
        if constexpr (std::is_lvalue_reference_v<Update>)
            append_content(message->contents, c);
        else
            append_content(message->contents, std::move(c));
    }
}

} // namespace forma
