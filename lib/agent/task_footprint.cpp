#include "task_footprint.hpp"

#include <boost/json/serializer.hpp>
#include <boost/json/value_from.hpp>

namespace forma::agent_detail {

namespace {

// What an update's or a content's own fields cost beside their strings: a fair share of the
// JSON's punctuation and member names, so that many tiny pieces count for something.
constexpr std::size_t per_part = 32;

// The length of `value` as JSON, counted without writing it whole.
std::size_t json_length(const boost::json::value& value) {
    if (value.is_null()) return 0;
    boost::json::serializer writer;
    writer.reset(&value);
    char chunk[4096];
    std::size_t length = 0;
    while (!writer.done()) length += writer.read(chunk, sizeof chunk).size();
    return length;
}

// A streamed piece of text (the common update) by its strings; any other content by its JSON.
std::size_t content_footprint(const content& c) {
    if (const auto* text = std::get_if<text_content>(&c); text && text->raw_representation.is_null() && text->additional_properties.empty())
        return per_part + text->text.size();
    if (const auto* reasoning = std::get_if<text_reasoning_content>(&c);
        reasoning && reasoning->raw_representation.is_null() && reasoning->additional_properties.empty())
        return per_part + reasoning->text.size() + (reasoning->protected_data ? reasoning->protected_data->size() : 0);
    return per_part + json_length(boost::json::value_from(c));
}

} // namespace

std::size_t footprint(const agent_response_update& update) {
    std::size_t bytes = per_part + update.author_name.size() + update.response_id.size() + update.message_id.size() +
                        update.agent_id.size() + json_length(update.raw_representation);
    if (!update.additional_properties.empty()) bytes += json_length(update.additional_properties);
    if (update.continuation_token) bytes += json_length(boost::json::value_from(*update.continuation_token));
    for (const content& c : update.contents) bytes += content_footprint(c);
    return bytes;
}

std::size_t footprint(const agent_task& task) {
    std::size_t bytes = task.id.size() + task.context_id.size() + task.owner.size() + task.error.size() + json_length(task.properties);
    for (const chat_message& m : task.input) {
        bytes += per_part + m.author_name.size() + m.message_id.size();
        for (const content& c : m.contents) bytes += content_footprint(c);
    }
    for (const agent_response_update& u : task.updates) bytes += footprint(u);
    return bytes;
}

} // namespace forma::agent_detail
