#include "ag_ui_events.hpp"

#include "../json/json_text.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::serving::detail {

namespace json = boost::json;

namespace {

const json::object& approval_schema() {
    static const json::object schema = json::parse(R"({"type":"object","properties":{"approved":{"type":"boolean"},)"
                                                   R"("reason":{"type":"string"}},"required":["approved"]})").get_object();
    return schema;
}

json::array usage_entries(const std::optional<usage_details>& usage) {
    if (!usage) return {};
    json::object entry;
    auto put = [&](std::string_view key, const std::optional<std::int64_t>& n) {
        if (n) entry[key] = *n;
    };
    put("inputTokens", usage->input_token_count);
    put("outputTokens", usage->output_token_count);
    put("totalTokens", usage->total_token_count);
    put("reasoningTokens", usage->reasoning_token_count);
    put("cachedInputTokens", usage->cached_input_token_count);
    if (entry.empty()) return {};
    return json::array{std::move(entry)};
}

std::string result_text(const function_result_content& r) {
    if (r.error) return json_detail::valid_utf8(*r.error);
    return r.result.is_string() ? json_detail::valid_utf8(r.result.get_string()) : json::serialize(r.result);
}

} // namespace

std::string interrupt_id(std::string_view task_id, std::string_view key) {
    std::string id(task_id);
    id += '/';
    id += key;
    return id;
}

ag_ui_events::ag_ui_events(std::string thread_id, std::string run_id) : thread_id_(std::move(thread_id)), run_id_(std::move(run_id)) {}

json::object ag_ui_events::run_started() const {
    return {{"type", "RUN_STARTED"}, {"threadId", thread_id_}, {"runId", run_id_}, {"protocolVersion", "1.0"}};
}

std::string ag_ui_events::next_message_id() { return run_id_ + "-" + std::to_string(++messages_); }

void ag_ui_events::close_text(std::vector<json::object>& out) {
    if (text_id_.empty()) return;
    out.push_back({{"type", "TEXT_MESSAGE_END"}, {"messageId", text_id_}});
    last_text_id_ = std::move(text_id_);
    text_id_.clear();
}

void ag_ui_events::close_reasoning(std::vector<json::object>& out) {
    if (reasoning_id_.empty()) return;
    out.push_back({{"type", "REASONING_MESSAGE_END"}, {"messageId", reasoning_id_}});
    out.push_back({{"type", "REASONING_END"}, {"messageId", reasoning_id_}});
    reasoning_id_.clear();
}

void ag_ui_events::announce_call(const function_call_content& call, std::vector<json::object>& out) {
    if (!announced_calls_.insert(call.call_id).second) return;
    close_text(out);
    close_reasoning(out);
    json::object start{{"type", "TOOL_CALL_START"}, {"toolCallId", json_detail::valid_utf8(call.call_id)}, {"toolCallName", json_detail::valid_utf8(call.name)}};
    if (!last_text_id_.empty()) start["parentMessageId"] = last_text_id_;
    out.push_back(std::move(start));
    out.push_back({{"type", "TOOL_CALL_ARGS"}, {"toolCallId", json_detail::valid_utf8(call.call_id)}, {"delta", json::serialize(call.arguments)}});
    out.push_back({{"type", "TOOL_CALL_END"}, {"toolCallId", json_detail::valid_utf8(call.call_id)}});
}

std::vector<json::object> ag_ui_events::add(const agent_response_update& update) {
    std::vector<json::object> out;
    if (update.role && (*update.role == chat_role::user() || *update.role == chat_role::system())) return out; // the input
    for (const content& c : update.contents) {
        if (const auto* text = std::get_if<text_content>(&c)) {
            if (text->text.empty()) continue;
            close_reasoning(out);
            if (text_id_.empty()) {
                text_id_ = next_message_id();
                out.push_back({{"type", "TEXT_MESSAGE_START"}, {"messageId", text_id_}, {"role", "assistant"}});
            }
            out.push_back({{"type", "TEXT_MESSAGE_CONTENT"}, {"messageId", text_id_}, {"delta", json_detail::valid_utf8(text->text)}});
        } else if (const auto* reasoning = std::get_if<text_reasoning_content>(&c)) {
            if (reasoning->text.empty()) continue;
            close_text(out);
            if (reasoning_id_.empty()) {
                reasoning_id_ = next_message_id();
                out.push_back({{"type", "REASONING_START"}, {"messageId", reasoning_id_}});
                out.push_back({{"type", "REASONING_MESSAGE_START"}, {"messageId", reasoning_id_}, {"role", "reasoning"}});
            }
            out.push_back({{"type", "REASONING_MESSAGE_CONTENT"}, {"messageId", reasoning_id_}, {"delta", json_detail::valid_utf8(reasoning->text)}});
        } else if (const auto* call = std::get_if<function_call_content>(&c)) {
            announce_call(*call, out);
        } else if (const auto* request = std::get_if<function_approval_request_content>(&c)) {
            announce_call(request->call, out);
        } else if (const auto* result = std::get_if<function_result_content>(&c)) {
            close_text(out);
            close_reasoning(out);
            out.push_back({{"type", "TOOL_CALL_RESULT"}, {"messageId", "result-" + json_detail::valid_utf8(result->call_id)},
                           {"toolCallId", json_detail::valid_utf8(result->call_id)}, {"content", result_text(*result)}, {"role", "tool"}});
        }
    }
    return out;
}

std::vector<json::object> ag_ui_events::finish(const agent_task& task, bool typed) {
    std::vector<json::object> out;
    close_text(out);
    close_reasoning(out);
    json::object finished{{"type", "RUN_FINISHED"}, {"threadId", thread_id_}, {"runId", run_id_}};
    const agent_response<> answer = last_answer(task);
    switch (task.state) {
    case task_state::failed:
        out.push_back({{"type", "RUN_ERROR"}, {"message", json_detail::valid_utf8(task.error.empty() ? "the run failed" : task.error)}, {"code", "run_failed"}});
        return out;
    case task_state::canceled:
        finished["outcome"] = {{"type", "cancelled"}};
        break;
    case task_state::input_required: {
        json::array interrupts;
        for (const function_approval_request_content& r : answer.approval_requests())
            interrupts.push_back({{"id", interrupt_id(task.id, r.id)}, {"reason", "tool_approval"},
                                  {"message", "Approve the call of " + json_detail::valid_utf8(r.call.name) + "?"}, {"toolCallId", json_detail::valid_utf8(r.call.call_id)},
                                  {"responseSchema", approval_schema()}});
        if (interrupts.empty())
            interrupts.push_back({{"id", interrupt_id(task.id, question_key)}, {"reason", "input_required"},
                                  {"message", json_detail::valid_utf8(answer.text())}, {"responseSchema", {{"type", "string"}}}});
        finished["outcome"] = {{"type", "interrupt"}, {"interrupts", std::move(interrupts)}};
        break;
    }
    default: {
        if (typed) {
            boost::system::error_code ec;
            json::value value = json::parse(answer.text(), ec);
            if (!ec) {
                out.push_back({{"type", "STATE_SNAPSHOT"}, {"snapshot", value}});
                finished["result"] = std::move(value);
            }
        }
        finished["outcome"] = {{"type", "success"}};
    }
    }
    if (json::array usage = usage_entries(answer.usage); !usage.empty()) finished["usage"] = std::move(usage);
    out.push_back(std::move(finished));
    return out;
}

} // namespace forma::serving::detail
