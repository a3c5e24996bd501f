#include "openai_request.hpp"

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"

#include <forma/error.hpp>
#include <forma/json/from_json.hpp>
#include <forma/json/schema_validator.hpp>
#include <forma/json/strict_rules.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::serving::detail {

namespace {

namespace json = boost::json;

// The roles compared with on every request, made once: making one costs more than comparing.
const chat_role& tool_role() {
    static const chat_role role = chat_role::tool();
    return role;
}
const chat_role& assistant_role() {
    static const chat_role role = chat_role::assistant();
    return role;
}

// Where an element of a request's array is ("messages[2]"), spelled out only for an error.
struct element_place {
    std::string_view array;
    std::size_t index;
    std::string operator+(std::string_view member) const {
        return std::string(array).append("[").append(std::to_string(index)).append("]").append(member);
    }
};

chat_role role_named(std::string_view role, const element_place& at, std::string_view member) {
    if (role == "system" || role == "developer") return chat_role::system();
    if (role == "user") return chat_role::user();
    if (role == "assistant") return chat_role::assistant();
    if (role == "tool") return chat_role::tool();
    refuse(at + member, "unknown role \"" + json_detail::valid_utf8(role) + "\" (system, developer, user, assistant or tool)");
}

// A message's content: a string, or parts of text (text, input_text, output_text) and images.
std::vector<content> contents_of(content_body& body, const element_place& place, std::string_view member) {
    std::vector<content> out;
    if (!body) return out;
    if (std::string* text = std::get_if<std::string>(&*body)) {
        out.emplace_back(text_content(std::move(*text)));
        return out;
    }
    std::vector<content_part_body>& parts = std::get<std::vector<content_part_body>>(*body);
    out.reserve(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
        content_part_body& part = parts[i];
        const std::string& type = part.type;
        if (type == "text" || type == "input_text" || type == "output_text") {
            out.emplace_back(text_content(std::move(part.text).value_or("")));
        } else if (type == "image_url" || type == "input_image") {
            std::string url;
            if (part.image_url)
                url = std::visit([](auto& u) -> std::string {
                    if constexpr (std::is_same_v<std::decay_t<decltype(u)>, std::string>) return std::move(u);
                    else return std::move(u.url);
                }, *part.image_url);
            out.emplace_back(uri_content(std::move(url), "image/*"));
        } else {
            refuse((place + member).append("[").append(std::to_string(i)).append("].type"),
                   "content parts of type \"" + type + "\" are not taken");
        }
    }
    return out;
}

json::object arguments_of(const std::optional<std::string>& text) {
    if (!text) return json::object();
    boost::system::error_code ec;
    json::value v = json::parse(*text, ec);
    return !ec && v.is_object() ? std::move(v.get_object()) : json::object();
}

void read_format(const json::value& format_value, const std::string& param, agent_run_options& options) {
    if (format_value.is_null()) return;
    const json::object* found = format_value.if_object();
    if (!found) refuse(param, "a response format must be an object");
    const json::object& format = *found;
    const std::string type = json_detail::string_member(format, "type");
    if (type == "text") return;
    if (type == "json_object") {
        options.response_format = response_format::json();
        return;
    }
    if (type != "json_schema") refuse(param + ".type", "response formats are text, json_object or json_schema");
    // Chat Completions nests the schema under json_schema; Responses puts it beside the type.
    const json::value* nested = format.if_contains("json_schema");
    const json::object& spec = nested && nested->is_object() ? nested->get_object() : format;
    const json::value* schema = spec.if_contains("schema");
    const std::string schema_param = param + (nested && nested->is_object() ? ".json_schema.schema" : ".schema");
    if (!schema || !schema->is_object()) refuse(schema_param, "a json_schema format needs a schema object");
    const json::value* strict = spec.if_contains("strict");
    // A schema the model would refuse is the caller's to fix: a 400 naming where, not a failed run.
    try {
        (void)schema_validator(schema->get_object());
    } catch (const error& e) {
        refuse(schema_param, e.what());
    }
    if (strict && strict->is_bool() && strict->get_bool())
        if (const std::optional<std::string> broken = openai_strict_violation(schema->get_object()))
            refuse(schema_param, "a strict schema must keep OpenAI's strict rules: " + *broken);
    try {
        options.response_format = response_format::json_schema(json_detail::string_member(spec, "name"), schema->get_object(),
                                                               json_detail::string_member(spec, "description"),
                                                               strict && strict->is_bool() ? std::optional(strict->get_bool()) : std::nullopt);
    } catch (const error& e) {
        refuse(param + ".name", e.what());
    }
}

// temperature, top_p, seed, stop, instructions, and the output token limit (the last of
// `max_tokens` given). Chat options are set only when the request has one: the agent's own
// are merged with them.
void read_sampling(const request_body_base& body, std::initializer_list<std::optional<std::int64_t>> max_tokens, agent_run_options& options) {
    const auto chat = [&]() -> chat_options& { return options.chat_options ? *options.chat_options : options.chat_options.emplace(); };
    if (body.temperature) chat().temperature = *body.temperature;
    if (body.top_p) chat().top_p = *body.top_p;
    if (body.seed) chat().seed = *body.seed;
    for (const std::optional<std::int64_t>& m : max_tokens)
        if (m) chat().max_output_tokens = *m;
    if (body.stop) {
        if (const std::string* one = std::get_if<std::string>(&*body.stop)) chat().stop_sequences.push_back(*one);
        else chat().stop_sequences = std::get<std::vector<std::string>>(*body.stop);
    }
    if (body.instructions) chat().instructions = *body.instructions;
}

// {"approved": bool, "reason"?: string} as a tool's result: whether, and why.
std::optional<std::pair<bool, std::string>> decision_of(const function_result_content& result) {
    if (!result.result.is_string()) return std::nullopt;
    boost::system::error_code ec;
    const json::value v = json::parse(result.result.get_string(), ec);
    const json::object* o = ec ? nullptr : v.if_object();
    const json::value* approved = o ? o->if_contains("approved") : nullptr;
    if (!approved || !approved->is_bool()) return std::nullopt;
    return std::pair(approved->get_bool(), json_detail::string_member(*o, "reason"));
}

// The call `call_id` of an assistant message in `input`, made an approval request there.
std::optional<function_call_content> ask_approval_of(std::vector<chat_message>& input, const std::string& call_id) {
    for (chat_message& m : input) {
        if (m.role != assistant_role()) continue;
        for (content& c : m.contents)
            if (const auto* call = std::get_if<function_call_content>(&c); call && call->call_id == call_id) {
                function_call_content asked = *call;
                c = function_approval_request_content(call_id, asked);
                return asked;
            }
    }
    return std::nullopt;
}

void refuse_client_tools(const request_body_base& body) {
    if (body.tools && body.tools->is_array() && !body.tools->get_array().empty())
        refuse("tools", "this model is an agent whose tools run inside it; a request's own tools are not taken");
}

// OpenAI's name of the member at a JSON Pointer: "/messages/0/role" is "messages[0].role".
std::string param_of(std::string_view pointer) {
    std::string out;
    for (const std::string& token : json_detail::pointer_tokens(pointer).value_or(std::vector<std::string>{})) {
        const bool index = !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (index) out.append("[").append(token).append("]");
        else out.append(out.empty() ? "" : ".").append(token);
    }
    return json_detail::valid_utf8(out);
}

// The body read as a `Body`. @throws request_error naming the member at fault.
template <class Body>
Body read_body(std::string_view json) {
    try {
        return from_json<Body>(json); // returned in place, where a result<Body> would be moved out
    } catch (const json_error& e) {
        refuse(param_of(e.path()), e.what());
    }
}

} // namespace

responses_request_body read_responses_body(std::string_view json) { return read_body<responses_request_body>(json); }

void read_chat_request(std::string_view json, run_request& out) {
    chat_request_body body = read_body<chat_request_body>(json);
    out.model = std::move(body.model).value_or("");
    if (!body.messages || body.messages->empty()) refuse("messages", "messages must be a non-empty array");
    refuse_client_tools(body);
    out.input.reserve(body.messages->size());
    for (std::size_t i = 0; i < body.messages->size(); ++i) {
        chat_message_body& message = (*body.messages)[i];
        const element_place place{"messages", i};
        const std::string_view role_text = message.role ? std::string_view(*message.role) : std::string_view();
        chat_role role = role_named(role_text, place, ".role");
        std::vector<content> contents;
        if (role_text == "tool") {
            std::string result;
            for (const content& c : contents_of(message.content, place, ".content"))
                if (const auto* t = std::get_if<text_content>(&c)) result += t->text;
            contents.emplace_back(function_result_content(std::move(message.tool_call_id).value_or(""), json::value(result)));
        } else {
            contents = contents_of(message.content, place, ".content");
        }
        if (message.tool_calls)
            for (tool_call_body& call : *message.tool_calls)
                contents.emplace_back(function_call_content(std::move(call.id).value_or(""), std::move(call.function.name).value_or(""),
                                                            arguments_of(call.function.arguments)));
        out.input.emplace_back(std::move(role), std::move(contents));
    }
    read_approval_answers(out.input, {}, "messages");
    if (body.response_format) read_format(*body.response_format, "response_format", out.options);
    read_sampling(body, {body.max_tokens, body.max_completion_tokens}, out.options);
    out.stream = body.stream.value_or(false);
    out.include_usage = body.stream_options && body.stream_options->include_usage.value_or(false);
}

run_request read_responses_request(responses_request_body& body) {
    run_request out;
    out.model = body.model.value_or("");
    refuse_client_tools(body);
    if (!body.input) refuse("input", "input must be text or an array of messages");
    if (std::string* text = std::get_if<std::string>(&*body.input)) {
        out.input.emplace_back(chat_role::user(), std::move(*text));
    } else {
        std::vector<input_item_body>& items = std::get<std::vector<input_item_body>>(*body.input);
        out.input.reserve(items.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            input_item_body& item = items[i];
            const element_place place{"input", i};
            const std::string type = item.type.value_or("");
            if (type == "function_call") {
                out.input.emplace_back(chat_role::assistant(), std::vector<content>{function_call_content(
                                                                   std::move(item.call_id).value_or(""), std::move(item.name).value_or(""),
                                                                   arguments_of(item.arguments))});
            } else if (type == "function_call_output") {
                out.input.emplace_back(chat_role::tool(), std::vector<content>{function_result_content(
                                                              std::move(item.call_id).value_or(""), json::value(std::move(item.output).value_or("")))});
            } else if (type.empty() || type == "message") {
                const chat_role role = role_named(item.role ? std::string_view(*item.role) : std::string_view(), place, ".role");
                out.input.emplace_back(role, contents_of(item.content, place, ".content"));
            } else {
                refuse(place + ".type", "input items of type \"" + type + "\" are not taken");
            }
        }
        if (out.input.empty()) refuse("input", "input must hold at least one message");
    }
    if (body.text && !body.text->is_null()) {
        const json::object* text = body.text->if_object();
        if (!text) refuse("text", "text must be an object");
        if (const json::value* format = text->if_contains("format")) read_format(*format, "text.format", out.options);
    }
    read_sampling(body, {body.max_output_tokens}, out.options);
    out.stream = body.stream.value_or(false);
    out.background = body.background.value_or(false);
    out.store = body.store.value_or(true);
    if (out.background && !out.store) refuse("store", "a background response is stored: background needs store true");
    out.previous_response_id = body.previous_response_id.value_or("");
    return out;
}

void read_approval_answers(std::vector<chat_message>& input, const std::vector<function_approval_request_content>& pending,
                           std::string_view param) {
    const auto waited = [&](const std::string& call_id) {
        return std::find_if(pending.begin(), pending.end(), [&](const auto& r) { return r.id == call_id; });
    };
    std::vector<std::string> answered;
    for (chat_message& m : input) {
        if (m.role != tool_role() || m.contents.size() != 1) continue;
        const auto* result = std::get_if<function_result_content>(&m.contents.front());
        if (!result) continue;
        const std::string call_id = result->call_id;
        const auto request = waited(call_id);
        const bool asked_in_input = std::any_of(input.begin(), input.end(), [&](const chat_message& other) {
            return other.role == assistant_role() && std::any_of(other.contents.begin(), other.contents.end(), [&](const content& c) {
                       const auto* call = std::get_if<function_call_content>(&c);
                       return call && call->call_id == call_id;
                   });
        });
        if (request == pending.end() && !asked_in_input)
            refuse(std::string(param), "the tool result for call_id \"" + json_detail::valid_utf8(call_id) +
                                           "\" answers no tool call of this conversation");
        if (std::find(answered.begin(), answered.end(), call_id) != answered.end())
            refuse(std::string(param), "the call " + json_detail::valid_utf8(call_id) + " is answered twice");
        const std::optional<std::pair<bool, std::string>> decision = decision_of(*result);
        if (!decision) {
            if (request != pending.end())
                refuse(std::string(param), "the answer to the call " + call_id + " must be {\"approved\": boolean, \"reason\"?: string}");
            continue; // a result of a call in the input, for the agent to read
        }
        answered.push_back(call_id);
        std::optional<function_call_content> call;
        if (request != pending.end()) call = request->call;
        else call = ask_approval_of(input, call_id);
        m = chat_message(chat_role::user(), std::vector<content>{
            function_approval_response_content(call_id, decision->first, std::move(*call), decision->second)});
    }
    for (const function_approval_request_content& request : pending)
        if (std::find(answered.begin(), answered.end(), request.id) == answered.end())
            refuse(std::string(param), "the response waits for an answer to the call " + request.id + " (" + json_detail::valid_utf8(request.call.name) +
                                           "): send its function_call_output, {\"approved\": boolean, \"reason\"?: string}");
}

} // namespace forma::serving::detail
