#include <forma/openai/response_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include "wire.hpp"
#include "../json/parsed_numbers.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>

namespace forma::openai {
namespace {

// More parallel tool calls than any model makes; bounds what a bad index can allocate.
constexpr std::int64_t max_tool_calls = 1024;

bool is_done(std::string_view data) noexcept {
    while (!data.empty() && (data.back() == ' ' || data.back() == '\t')) data.remove_suffix(1);
    while (!data.empty() && (data.front() == ' ' || data.front() == '\t')) data.remove_prefix(1);
    return data == "[DONE]";
}

} // namespace

stream_parser::stream_parser(stream_parser_options options)
    : options_(options), sse_(options.sse) {}

std::optional<agent_response_update> stream_parser::next(std::string_view& input) {
    while (!done_) {
        const net::sse_event* event = sse_.next(input);
        if (!event) return std::nullopt;
        if (auto update = map_event(*event)) return update;
    }
    input = {}; // after [DONE] nothing more is read
    return std::nullopt;
}

bool stream_parser::is_answer(const pending_call& call) const noexcept {
    return !options_.answer_tool.empty() && call.name == options_.answer_tool;
}

void stream_parser::flush_calls(agent_response_update& update) {
    for (pending_call& call : calls_)
        if (!is_answer(call)) // its arguments went out as text
            update.contents.emplace_back(detail::wire::to_function_call(std::move(call.id), std::move(call.name),
                                                                std::move(call.arguments)));
    calls_.clear();
}

std::optional<agent_response_update> stream_parser::map_event(const net::sse_event& event) {
    if (done_) return std::nullopt;
    if (event.type == "error") throw parse_error(0, event.data);
    if (event.type != "message") return std::nullopt;
    if (is_done(event.data)) {
        done_ = true;
        agent_response_update update; // a stream that ended its tool calls without a finish reason
        flush_calls(update);
        if (update.contents.empty()) return std::nullopt;
        return update;
    }

    detail::wire::completion_wire chunk = detail::wire::read_completion(event.data);
    if (chunk.error) throw detail::wire::to_http_error(0, *chunk.error);

    agent_response_update update;
    bool carries = false;
    detail::wire::choice_wire* choice = detail::wire::first_choice(chunk);
    if (choice) {
        if (auto& delta = choice->delta) {
            if (delta->role && !delta->role->empty()) {
                update.role = chat_role(*delta->role);
                carries = true;
            }
            auto& reasoning = delta->reasoning_content ? delta->reasoning_content : delta->reasoning;
            if (reasoning && !reasoning->empty())
                update.contents.emplace_back(text_reasoning_content(std::move(*reasoning)));
            if (delta->content && !delta->content->empty())
                update.contents.emplace_back(text_content(std::move(*delta->content)));
            if (delta->refusal && !delta->refusal->empty())
                update.contents.emplace_back(refusal_content(std::move(*delta->refusal)));
            if (delta->tool_calls) {
                for (std::size_t i = 0; i < delta->tool_calls->size(); ++i) {
                    detail::wire::tool_call_wire& call = (*delta->tool_calls)[i];
                    const std::int64_t index = call.index.value_or(0);
                    if (index < 0 || index >= max_tool_calls)
                        throw json_error("/choices/0/delta/tool_calls/" + std::to_string(i) + "/index",
                                         "tool call index " + std::to_string(index) + " is out of range");
                    if (calls_.size() <= static_cast<std::size_t>(index))
                        calls_.resize(static_cast<std::size_t>(index) + 1);
                    pending_call& pending = calls_[static_cast<std::size_t>(index)];
                    if (call.id && !call.id->empty()) pending.id = std::move(*call.id);
                    if (call.function) {
                        if (call.function->name && !call.function->name->empty())
                            pending.name = std::move(*call.function->name);
                        if (auto& arguments = call.function->arguments) {
                            if (pending.arguments.empty()) pending.arguments = std::move(*arguments);
                            else pending.arguments += *arguments;
                        }
                    }
                    if (is_answer(pending) && !pending.arguments.empty()) {
                        update.contents.emplace_back(text_content(std::move(pending.arguments)));
                        pending.arguments.clear();
                    }
                }
            }
        }
        if (choice->finish_reason && !choice->finish_reason->empty()) {
            update.finish_reason = finish_reason(std::move(*choice->finish_reason));
            const bool only_answer = !calls_.empty() && std::all_of(calls_.begin(), calls_.end(),
                                                                   [&](const pending_call& c) { return is_answer(c); });
            if (only_answer && update.finish_reason == finish_reason::tool_calls())
                update.finish_reason = finish_reason::stop();
            finished_ = true;
            carries = true;
            flush_calls(update);
        }
    }
    if (chunk.usage) update.contents.emplace_back(usage_content(detail::wire::to_usage(*chunk.usage)));
    if (!carries && update.contents.empty()) return std::nullopt;

    update.response_id = std::move(chunk.id).value_or("");
    if (choice) update.message_id = update.response_id;
    update.created_at = detail::wire::to_time(chunk.created);
    if (chunk.model && *chunk.model != model_) {
        model_ = *chunk.model;
        update.additional_properties["model"] = model_;
    }
    if (options_.keep_raw_chunks) {
        update.raw_representation = boost::json::parse(event.data);
        (void)json_detail::repair_parsed_numbers(update.raw_representation); // as parse_raw does
    }
    return update;
}

void stream_parser::finish() const {
    if (done_ || finished_) return;
    throw stream_error(stream_error_kind::incomplete,
                       sse_.in_event()
                           ? "the response stream ended in the middle of an event, before [DONE] "
                             "and before a finish reason: the answer is incomplete"
                           : "the response stream ended before [DONE] and before a finish reason: "
                             "the answer is incomplete");
}

} // namespace forma::openai
