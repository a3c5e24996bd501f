#include <forma/testing/model_server.hpp>
#include "../detail/ascii.hpp"

#include "generated_answer.hpp"

#include <algorithm>

namespace forma::testing {

using lib_detail::iequals;

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
        // One `data:` line per line of the event, so that a multi-line event stays one event.
        std::string chunk;
        std::string_view rest = e;
        for (;;) {
            const std::size_t nl = rest.find('\n');
            chunk.append("data: ").append(rest.substr(0, nl)).push_back('\n');
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
        }
        chunk.push_back('\n');
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
