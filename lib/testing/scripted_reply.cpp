#include <forma/testing/model_server.hpp>
#include "../text/ascii.hpp"

#include "generated_answer.hpp"
#include "responses_shapes.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::testing {

using text_detail::iequals;

namespace {

bool has_header(const scripted_reply& reply, std::string_view name) {
    return std::any_of(reply.headers.begin(), reply.headers.end(),
                       [&](const auto& h) { return iequals(h.first, name); });
}

// Cuts a reply after `count` chunks (or, for a whole body, `count` bytes) so that what
// was announced (chunked framing, the full Content-Length) is more than what comes.
void keep_first(scripted_reply& reply, std::size_t count) {
    if (!reply.chunks.empty() || has_header(reply, "Transfer-Encoding")) {
        if (!has_header(reply, "Transfer-Encoding")) reply.headers.emplace_back("Transfer-Encoding", "chunked");
        if (reply.chunks.size() > count) reply.chunks.resize(count);
        if (reply.chunk_delays.size() > count) reply.chunk_delays.resize(count);
        return;
    }
    if (!has_header(reply, "Content-Length"))
        reply.headers.emplace_back("Content-Length", std::to_string(reply.body.size()));
    if (reply.body.size() > count) reply.body.resize(count);
}

// What the factories' replies say about themselves: usage counts the content's words.
detail::word_usage usage_of(std::string_view content) {
    return {.completion_tokens = static_cast<std::int64_t>(detail::count_words(content))};
}
detail::answer_meta meta_now() { return {.created = detail::unix_now()}; }

scripted_reply event_stream(std::vector<std::string> events) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    reply.chunks = std::move(events);
    return reply;
}

// One `data:` line per line of `event`, so that a multi-line event stays one event.
void append_data_lines(std::string& chunk, std::string_view event) {
    for (;;) {
        const std::size_t nl = event.find('\n');
        chunk.append("data: ").append(event.substr(0, nl)).push_back('\n');
        if (nl == std::string_view::npos) break;
        event.remove_prefix(nl + 1);
    }
    chunk.push_back('\n');
}

boost::json::object scripted_response_base() {
    return detail::response_base("resp_scripted", "forma-local", detail::unix_now());
}

detail::response_usage response_usage_of(std::string_view text) {
    const auto words = static_cast<std::int64_t>(detail::count_words(text));
    return {.output_tokens = words};
}

} // namespace

scripted_reply scripted_reply::json(std::string body, unsigned status) {
    scripted_reply reply;
    reply.status = status;
    reply.body = std::move(body);
    return reply;
}

scripted_reply scripted_reply::completion(std::string_view content, std::string_view finish_reason) {
    return json(detail::completion_body(meta_now(), content, finish_reason, usage_of(content)));
}

scripted_reply scripted_reply::error(unsigned status, std::string_view type, std::string_view message,
                                     std::string_view code) {
    return json(detail::error_body(type, message, code), status);
}

scripted_reply scripted_reply::events(const std::vector<std::string>& events) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    for (const std::string& e : events) {
        std::string chunk;
        append_data_lines(chunk, e);
        reply.chunks.push_back(std::move(chunk));
    }
    return reply;
}

scripted_reply scripted_reply::stream(std::string_view content, std::size_t delta_size,
                                      std::string_view finish_reason) {
    const detail::word_usage usage = usage_of(content);
    return event_stream(detail::stream_events(meta_now(), content, delta_size, finish_reason, &usage));
}

scripted_reply scripted_reply::tool_calls(const std::vector<scripted_tool_call>& calls, std::string_view content) {
    return json(detail::tool_calls_body(meta_now(), calls, content, usage_of(content)));
}

scripted_reply scripted_reply::stream_tool_calls(const std::vector<scripted_tool_call>& calls, std::size_t piece_size,
                                                 std::string_view content) {
    const detail::word_usage usage = usage_of(content);
    return event_stream(detail::tool_call_events(meta_now(), calls, piece_size, content, &usage));
}

scripted_reply scripted_reply::response_text(std::string_view text, std::string_view status) {
    boost::json::array output;
    const bool running = status == "queued" || status == "in_progress";
    if (!text.empty() && status != "failed")
        output.push_back(detail::message_item("msg_scripted", text,
                                              status == "incomplete" || status == "cancelled" ? "incomplete"
                                              : running                                       ? "in_progress"
                                                                                              : "completed"));
    const detail::response_usage usage = response_usage_of(status == "failed" ? std::string_view() : text);
    return json(boost::json::serialize(detail::response_at(scripted_response_base(), status, std::move(output),
                                                           running ? nullptr : &usage, text)));
}

scripted_reply scripted_reply::response_stream(std::string_view text, std::size_t delta_size) {
    const detail::response_usage usage = response_usage_of(text);
    const boost::json::object response = detail::response_at(
        scripted_response_base(), "completed", boost::json::array{detail::message_item("msg_scripted", text)}, &usage);
    return event_stream(detail::stream_response(response, "in_progress", delta_size).events);
}

scripted_reply scripted_reply::response_function_calls(const std::vector<scripted_tool_call>& calls) {
    boost::json::array output;
    detail::response_usage usage;
    for (std::size_t i = 0; i < calls.size(); ++i) {
        output.push_back(detail::function_call_item("fc_scripted_" + std::to_string(i), calls[i]));
        usage.output_tokens += static_cast<std::int64_t>(detail::count_words(calls[i].arguments));
    }
    return json(boost::json::serialize(
        detail::response_at(scripted_response_base(), "completed", std::move(output), &usage)));
}

scripted_reply scripted_reply::response_events(const std::vector<std::string>& events) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    for (const std::string& e : events) {
        // The `event:` line names the JSON's type, when it has one that is a string.
        boost::system::error_code ec;
        const boost::json::value parsed = boost::json::parse(e, ec);
        const boost::json::object* object = ec ? nullptr : parsed.if_object();
        const boost::json::value* type = object ? object->if_contains("type") : nullptr;
        std::string chunk;
        if (type && type->is_string()) chunk.append("event: ").append(type->get_string()).push_back('\n');
        append_data_lines(chunk, e);
        reply.chunks.push_back(std::move(chunk));
    }
    return reply;
}

scripted_reply& scripted_reply::with_header(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
}

scripted_reply& scripted_reply::drop_after(std::size_t count) {
    keep_first(*this, count);
    ending = reply_ending::drop;
    return *this;
}

scripted_reply& scripted_reply::stall_after(std::size_t count) {
    keep_first(*this, count);
    ending = reply_ending::stall;
    return *this;
}

std::string_view received_request::header(std::string_view name) const noexcept {
    for (const auto& [key, value] : headers)
        if (iequals(key, name)) return value;
    return {};
}

} // namespace forma::testing
