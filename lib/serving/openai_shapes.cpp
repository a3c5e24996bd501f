#include "openai_shapes.hpp"

#include <forma/json/detail/writer.hpp>

#include "../json/json_text.hpp"
#include "../model/answer_text.hpp"
#include "../text/decimal_digits.hpp"

#include <boost/json/serialize.hpp>

#include <cmath>

namespace forma::serving::detail {

namespace json = boost::json;
using namespace std::string_view_literals; // literals appended without strlen

namespace {

json::object output_text_part(std::string_view text) {
    return {{"type", "output_text"}, {"text", json_detail::valid_utf8(text)}, {"annotations", json::array{}}, {"logprobs", json::array{}}};
}

json::object message_item(const std::string& id, std::string_view text, std::string_view status, bool with_part) {
    json::array content;
    if (with_part) content.push_back(output_text_part(text));
    return {{"id", id}, {"type", "message"}, {"role", "assistant"}, {"status", status}, {"content", std::move(content)}};
}

json::array chat_tool_calls(const std::vector<function_approval_request_content>& requests, bool indexed) {
    json::array calls;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        json::object call{{"id", json_detail::valid_utf8(requests[i].id)}, {"type", "function"},
                          {"function", {{"name", json_detail::valid_utf8(requests[i].call.name)}, {"arguments", json::serialize(requests[i].call.arguments)}}}};
        if (indexed) call["index"] = i;
        calls.push_back(std::move(call));
    }
    return calls;
}

json::object function_call_item(const function_approval_request_content& request, std::string_view arguments) {
    return {{"id", "fc_" + json_detail::valid_utf8(request.id)}, {"type", "function_call"}, {"status", arguments.empty() ? "in_progress" : "completed"},
            {"call_id", json_detail::valid_utf8(request.id)}, {"name", json_detail::valid_utf8(request.call.name)}, {"arguments", arguments}};
}

std::string_view status_of(task_state state) {
    switch (state) {
    case task_state::submitted: return "queued";
    case task_state::working: return "in_progress";
    case task_state::input_required:
    case task_state::completed: return "completed";
    case task_state::failed: return "failed";
    case task_state::canceled: return "cancelled";
    }
    return "in_progress";
}

// A message item's status: whole once the run answered, cut short ("incomplete") when it failed
// or was canceled (a killed server's partial answer included), else still being written.
std::string_view item_status(task_state state) {
    switch (state) {
    case task_state::input_required:
    case task_state::completed: return "completed";
    case task_state::failed:
    case task_state::canceled: return "incomplete";
    case task_state::submitted:
    case task_state::working: return "in_progress";
    }
    return "in_progress";
}

json::object responses_usage(const std::optional<usage_details>& usage) {
    const std::int64_t input = usage && usage->input_token_count ? *usage->input_token_count : 0;
    const std::int64_t output = usage && usage->output_token_count ? *usage->output_token_count : 0;
    const std::int64_t reasoning = usage && usage->reasoning_token_count ? *usage->reasoning_token_count : 0;
    const std::int64_t cached = usage && usage->cached_input_token_count ? *usage->cached_input_token_count : 0;
    return {{"input_tokens", input},
            {"input_tokens_details", {{"cached_tokens", cached}, {"cache_write_tokens", 0}}},
            {"output_tokens", output},
            {"output_tokens_details", {{"reasoning_tokens", reasoning}}},
            {"total_tokens", usage && usage->total_token_count ? *usage->total_token_count : input + output}};
}

} // namespace

std::string error_body(std::string_view message, std::string_view type, std::string_view param, std::string_view code) {
    json::object error{{"message", json_detail::valid_utf8(message)}, {"type", type}, {"param", nullptr}, {"code", nullptr}};
    if (!param.empty()) error["param"] = json_detail::valid_utf8(param);
    if (!code.empty()) error["code"] = code;
    return json::serialize(json::object{{"error", std::move(error)}});
}

namespace {

// {"prompt_tokens":..,"completion_tokens":..,"total_tokens":..}
void write_chat_usage(json_detail::writer& w, const std::optional<usage_details>& usage) {
    const std::int64_t input = usage && usage->input_token_count ? *usage->input_token_count : 0;
    const std::int64_t output = usage && usage->output_token_count ? *usage->output_token_count : 0;
    w.put(R"({"prompt_tokens":)"sv);
    json_detail::write_integer(w, input);
    w.put(R"(,"completion_tokens":)"sv);
    json_detail::write_integer(w, output);
    w.put(R"(,"total_tokens":)"sv);
    json_detail::write_integer(w, input + output);
    w.put('}');
}

} // namespace

std::string chat_completion(const agent_response<>& answer, std::string_view id, std::string_view model, std::int64_t created) {
    // The answer's text is one content's as a rule, written out without a copy of its own.
    std::string joined;
    const std::optional<std::string_view> single = model_detail::answer_text_view(answer);
    if (!single) joined = answer.text();
    const std::string_view text = single ? *single : std::string_view(joined);
    std::string_view finish = answer.finish_reason ? std::string_view(answer.finish_reason->value()) : "stop"sv;
    std::string tool_calls;
    if (const auto requests = answer.approval_requests(); !requests.empty()) {
        tool_calls = json_detail::serialize_utf8(chat_tool_calls(requests, false));
        finish = "tool_calls";
    }
    std::string out;
    {
        // Through a cursor: one capacity check a piece, not one a character, and room made once.
        json_detail::writer w(out);
        w.room(320 + id.size() + model.size() + text.size() + tool_calls.size());
        w.put(R"({"id":)"sv);
        json_detail::write_json_string(w, id);
        w.put(R"(,"object":"chat.completion","created":)"sv);
        json_detail::write_integer(w, created);
        w.put(R"(,"model":)"sv);
        json_detail::write_json_string(w, model);
        w.put(R"(,"choices":[{"index":0,"message":{"role":"assistant","content":)"sv);
        if (text.empty()) w.put("null"sv);
        else json_detail::write_json_string(w, text);
        w.put(R"(,"refusal":null)"sv);
        if (!tool_calls.empty()) {
            w.put(R"(,"tool_calls":)"sv);
            w.put(tool_calls);
        }
        w.put(R"(},"finish_reason":)"sv);
        json_detail::write_json_string(w, finish);
        w.put(R"(,"logprobs":null}],"usage":)"sv);
        write_chat_usage(w, answer.usage);
        w.put('}');
    }
    return out;
}

chat_chunks::chat_chunks(std::string_view id, std::string_view model, std::int64_t created) {
    head_.append(R"({"id":)"sv);
    json_detail::append_json_string(head_, id);
    head_.append(R"(,"object":"chat.completion.chunk","created":)"sv);
    text_detail::append_decimal(head_, created);
    head_.append(R"(,"model":)"sv);
    json_detail::append_json_string(head_, model);
    head_.append(R"(,"choices":)"sv);
}

std::string chat_chunks::chunk(std::string_view delta, std::optional<std::string_view> finish_reason) const {
    std::string out;
    out.reserve(head_.size() + delta.size() + 64);
    out.append(head_).append(R"([{"index":0,"delta":)"sv).append(delta).append(R"(,"logprobs":null,"finish_reason":)"sv);
    if (finish_reason) json_detail::append_json_string(out, *finish_reason);
    else out.append("null"sv);
    out.append("}]}"sv);
    return out;
}

std::string chat_chunks::content(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    out.append(R"({"content":)"sv);
    json_detail::append_json_string(out, text);
    out.append("}"sv);
    return out;
}

std::string chat_chunks::tool_calls(const std::vector<function_approval_request_content>& requests) {
    return json_detail::serialize_utf8(json::object{{"tool_calls", chat_tool_calls(requests, true)}});
}

std::string chat_chunks::usage(const std::optional<usage_details>& usage) const {
    std::string out = head_;
    {
        json_detail::writer w(out);
        w.put(R"([],"usage":)"sv);
        write_chat_usage(w, usage);
        w.put('}');
    }
    return out;
}

json::object response_base(const std::string& id, std::string_view model, std::int64_t created_at, const responses_request_body& request) {
    // The request's settings as given (a number sent as an integer stays one), or OpenAI's defaults.
    auto number = [](const std::optional<double>& v, json::value fallback) -> json::value {
        if (!v) return fallback;
        if (std::trunc(*v) == *v && std::abs(*v) < 9.0e15) return static_cast<std::int64_t>(*v);
        return *v;
    };
    auto text_or_null = [](const std::optional<std::string>& v) -> json::value { return v ? json::value(*v) : json::value(); };
    json::object text{{"format", {{"type", "text"}}}};
    if (request.text && request.text->is_object()) text = request.text->get_object();
    return {{"id", id},
            {"object", "response"},
            {"created_at", created_at},
            {"status", "in_progress"},
            {"background", request.background.value_or(false)},
            {"error", nullptr},
            {"incomplete_details", nullptr},
            {"instructions", text_or_null(request.instructions)},
            {"max_output_tokens", request.max_output_tokens ? json::value(*request.max_output_tokens) : json::value()},
            {"model", model},
            {"output", json::array{}},
            {"parallel_tool_calls", true},
            {"previous_response_id", text_or_null(request.previous_response_id)},
            {"reasoning", nullptr},
            {"service_tier", "default"},
            {"store", request.store.value_or(true)},
            {"temperature", number(request.temperature, 1)},
            {"text", std::move(text)},
            {"tool_choice", "auto"},
            {"tools", json::array{}},
            {"top_p", number(request.top_p, 1)},
            {"truncation", "disabled"},
            {"metadata", request.metadata && !request.metadata->is_null() ? *request.metadata : json::value(json::object{})}};
}

std::string message_item_id(const agent_task& task) { return "msg_" + task.id; }

json::object response_of(const json::object& base, const agent_task& task) {
    json::object out = base;
    const std::string_view status = status_of(task.state);
    out["status"] = status;
    const agent_response<> answer = last_answer(task);
    const std::string text = answer.text();
    const std::vector<function_approval_request_content> requests = answer.approval_requests();
    json::array output;
    if (task.state != task_state::submitted && (!text.empty() || (status == "completed" && requests.empty())))
        output.push_back(message_item(message_item_id(task), text, item_status(task.state), true));
    for (const function_approval_request_content& request : requests)
        output.push_back(function_call_item(request, json::serialize(request.call.arguments)));
    out["output"] = std::move(output);
    if (status == "completed") out["usage"] = responses_usage(answer.usage);
    if (status == "failed") out["error"] = {{"code", "server_error"}, {"message", json_detail::valid_utf8(task.error.empty() ? "the run failed" : task.error)}};
    return out;
}

response_events::response_events(json::object base, bool queued) : base_(std::move(base)), queued_(queued) {}

json::object response_events::numbered(json::object event) {
    event["sequence_number"] = sequence_++;
    return event;
}

json::object response_events::error(std::string_view code, std::string_view message) {
    return numbered({{"type", "error"}, {"code", code}, {"message", message}, {"param", nullptr}});
}

std::vector<json::object> response_events::start() {
    json::object opening = base_;
    opening["status"] = queued_ ? "queued" : "in_progress";
    std::vector<json::object> out;
    out.push_back(numbered({{"type", "response.created"}, {"response", opening}}));
    opening["status"] = "in_progress";
    out.push_back(numbered({{"type", "response.in_progress"}, {"response", std::move(opening)}}));
    return out;
}

void response_events::open_message(std::vector<json::object>& out) {
    if (message_open_) return;
    message_open_ = true;
    const std::string id = "msg_" + std::string(base_.at("id").as_string());
    out.push_back(numbered({{"type", "response.output_item.added"}, {"output_index", 0}, {"item", message_item(id, "", "in_progress", false)}}));
    out.push_back(numbered({{"type", "response.content_part.added"}, {"item_id", id}, {"output_index", 0}, {"content_index", 0},
                            {"part", output_text_part("")}}));
}

std::vector<json::object> response_events::add(const agent_response_update& update) {
    std::vector<json::object> out;
    if (update.role && (*update.role == chat_role::user() || *update.role == chat_role::system())) return out; // the input
    std::string text;
    for (const content& c : update.contents)
        if (const auto* t = std::get_if<text_content>(&c)) text += t->text;
    if (text.empty()) return out;
    open_message(out);
    text_ += text;
    const std::string id = "msg_" + std::string(base_.at("id").as_string());
    out.push_back(numbered({{"type", "response.output_text.delta"}, {"item_id", id}, {"output_index", 0}, {"content_index", 0},
                            {"delta", json_detail::valid_utf8(text)}, {"logprobs", json::array{}}}));
    return out;
}

std::vector<json::object> response_events::finish(const agent_task& task) {
    std::vector<json::object> out;
    const json::object final_response = response_of(base_, task);
    const std::string_view status = final_response.at("status").as_string();
    const std::vector<function_approval_request_content> requests = last_answer(task).approval_requests();
    std::size_t output_index = 0;
    if (message_open_ || (status == "completed" && requests.empty())) {
        open_message(out);
        const std::string id = message_item_id(task);
        out.push_back(numbered({{"type", "response.output_text.done"}, {"item_id", id}, {"output_index", 0}, {"content_index", 0},
                                {"text", json_detail::valid_utf8(text_)}, {"logprobs", json::array{}}}));
        out.push_back(numbered({{"type", "response.content_part.done"}, {"item_id", id}, {"output_index", 0}, {"content_index", 0},
                                {"part", output_text_part(text_)}}));
        out.push_back(numbered({{"type", "response.output_item.done"}, {"output_index", 0}, {"item", message_item(id, text_, item_status(task.state), true)}}));
        output_index = 1;
    }
    for (const function_approval_request_content& request : requests) {
        const std::string arguments = json::serialize(request.call.arguments);
        const std::string item_id = "fc_" + json_detail::valid_utf8(request.id);
        out.push_back(numbered({{"type", "response.output_item.added"}, {"output_index", output_index}, {"item", function_call_item(request, "")}}));
        out.push_back(numbered({{"type", "response.function_call_arguments.delta"}, {"item_id", item_id}, {"output_index", output_index},
                                {"delta", arguments}}));
        out.push_back(numbered({{"type", "response.function_call_arguments.done"}, {"item_id", item_id}, {"output_index", output_index},
                                {"name", json_detail::valid_utf8(request.call.name)}, {"arguments", arguments}}));
        out.push_back(numbered({{"type", "response.output_item.done"}, {"output_index", output_index}, {"item", function_call_item(request, arguments)}}));
        ++output_index;
    }
    const std::string_view closing = status == "completed" ? "response.completed" : status == "failed" ? "response.failed" : "response.incomplete";
    json::object last = final_response;
    if (status == "cancelled") last["incomplete_details"] = nullptr;
    out.push_back(numbered({{"type", closing}, {"response", std::move(last)}}));
    return out;
}

} // namespace forma::serving::detail
