#include "task_footprint.hpp"

#include <boost/json/serializer.hpp>
#include <boost/json/value_from.hpp>

namespace forma::agent_detail {

namespace {

// The length of `value` as JSON, counted without writing it whole.
std::size_t json_length(const boost::json::value& value) {
    boost::json::serializer writer;
    writer.reset(&value);
    char chunk[4096];
    std::size_t length = 0;
    while (!writer.done()) length += writer.read(chunk, sizeof chunk).size();
    return length;
}

} // namespace

std::size_t footprint(const agent_response_update& update) { return json_length(boost::json::value_from(update)); }

std::size_t footprint(const agent_task& task) {
    std::size_t bytes = task.id.size() + task.context_id.size() + task.owner.size() + task.error.size();
    bytes += json_length(boost::json::value_from(task.input)) + json_length(task.properties);
    for (const agent_response_update& u : task.updates) bytes += footprint(u);
    return bytes;
}

} // namespace forma::agent_detail
