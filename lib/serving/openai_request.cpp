#include "openai_request.hpp"

#include "../json/json_members.hpp"
#include "../json/json_text.hpp"

#include <forma/error.hpp>
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

// The text of the string member `key`, or "" (a view into `o`, which may hold invalid UTF-8).
std::string_view string_view_member(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

chat_role role_named(std::string_view role, const element_place& at, std::string_view member) {
    if (role == "system" || role == "developer") return chat_role::system();
    if (role == "user") return chat_role::user();
    if (role == "assistant") return chat_role::assistant();
    if (role == "tool") return chat_role::tool();
    refuse(at + member, "unknown role \"" + json_detail::valid_utf8(role) + "\" (system, developer, user, assistant or tool)");
}

// A message's content: a string, or parts of text (text, input_text, output_text) and images.
std::vector<content> contents_of(const json::value* value, const element_place& place, std::string_view member) {
    std::vector<content> out;
    if (!value || value->is_null()) return out;
    if (value->is_string()) {
        out.emplace_back(text_content(std::string(value->get_string())));
        return out;
    }
    if (!value->is_array()) refuse(place + member, "content must be a string or an array of parts");
    std::size_t i = 0;
    for (const json::value& p : value->get_array()) {
        const auto at = [&, index = i++] { return (place + member).append("[").append(std::to_string(index)).append("]"); };
        const json::object* part = p.if_object();
        if (!part) refuse(at(), "a content part must be an object");
        const std::string type = json_detail::string_member(*part, "type");
        if (type == "text" || type == "input_text" || type == "output_text") {
            out.emplace_back(text_content(json_detail::string_member(*part, "text")));
        } else if (type == "image_url") {
            const json::value* image = part->if_contains("image_url");
            const std::string url = image && image->is_object() ? json_detail::string_member(image->get_object(), "url") : "";
            out.emplace_back(uri_content(url, "image/*"));
        } else if (type == "input_image") {
            out.emplace_back(uri_content(json_detail::string_member(*part, "image_url"), "image/*"));
        } else {
            refuse(at() + ".type", "content parts of type \"" + type + "\" are not taken");
        }
    }
    return out;
}

json::object arguments_of(std::string_view text) {
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    return !ec && v.is_object() ? std::move(v.get_object()) : json::object();
}

void read_format(const json::object& format, const std::string& param, agent_run_options& options) {
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

// The members of a request's body that either endpoint reads (null where absent), found in one
// pass: a body has a few members, and a lookup for each name read would compare more.
struct request_members {
    const json::value *model{}, *messages{}, *input{}, *tools{}, *response_format{}, *text{}, *stream{}, *stream_options{},
        *background{}, *store{}, *previous_response_id{};
    const json::value *temperature{}, *top_p{}, *seed{}, *stop{}, *instructions{}, *max_tokens{}, *max_completion_tokens{},
        *max_output_tokens{};

    explicit request_members(const json::object& body) {
        for (const json::key_value_pair& member : body)
            if (const json::value** slot = slot_of(member.key())) *slot = &member.value();
    }

private:
    const json::value** slot_of(std::string_view key) {
        using namespace std::string_view_literals;
        for (auto [name, slot] : {std::pair{"model"sv, &model}, {"messages"sv, &messages}, {"input"sv, &input}, {"tools"sv, &tools},
                                  {"response_format"sv, &response_format}, {"text"sv, &text}, {"stream"sv, &stream},
                                  {"stream_options"sv, &stream_options}, {"background"sv, &background}, {"store"sv, &store},
                                  {"previous_response_id"sv, &previous_response_id}, {"temperature"sv, &temperature}, {"top_p"sv, &top_p},
                                  {"seed"sv, &seed}, {"stop"sv, &stop}, {"instructions"sv, &instructions}, {"max_tokens"sv, &max_tokens},
                                  {"max_completion_tokens"sv, &max_completion_tokens}, {"max_output_tokens"sv, &max_output_tokens}})
            if (key == name) return slot;
        return nullptr;
    }
};

// temperature, top_p, seed, stop, and the output token limit (the last of `max_tokens` given).
// Chat options are set only when the request has one: the agent's own are merged with them.
void read_sampling(const request_members& body, std::initializer_list<const json::value*> max_tokens, agent_run_options& options) {
    const auto chat = [&]() -> chat_options& { return options.chat_options ? *options.chat_options : options.chat_options.emplace(); };
    if (const json::value* t = body.temperature; t && t->is_number()) chat().temperature = t->to_number<double>();
    if (const json::value* p = body.top_p; p && p->is_number()) chat().top_p = p->to_number<double>();
    if (const json::value* s = body.seed; s && s->is_int64()) chat().seed = s->get_int64();
    for (const json::value* m : max_tokens)
        if (m && m->is_int64()) chat().max_output_tokens = m->get_int64();
    if (const json::value* stop = body.stop) {
        if (stop->is_string()) chat().stop_sequences.emplace_back(stop->get_string());
        if (stop->is_array())
            for (const json::value& s : stop->get_array())
                if (s.is_string()) chat().stop_sequences.emplace_back(s.get_string());
    }
    if (const json::value* instructions = body.instructions; instructions && instructions->is_string())
        chat().instructions = std::string(instructions->get_string());
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

void refuse_client_tools(const request_members& body) {
    if (const json::value* tools = body.tools; tools && tools->is_array() && !tools->get_array().empty())
        refuse("tools", "this model is an agent whose tools run inside it; a request's own tools are not taken");
}

} // namespace

run_request read_chat_request(const json::object& object) {
    const request_members body(object);
    run_request out;
    out.model = json_detail::string_of(body.model);
    const json::value* messages = body.messages;
    if (!messages || !messages->is_array() || messages->get_array().empty())
        refuse("messages", "messages must be a non-empty array");
    refuse_client_tools(body);
    out.input.reserve(messages->get_array().size());
    std::size_t i = 0;
    for (const json::value& m : messages->get_array()) {
        const element_place place{"messages", i++};
        const json::object* message = m.if_object();
        if (!message) refuse(place + "", "a message must be an object");
        const std::string_view role_text = string_view_member(*message, "role");
        const chat_role role = role_named(role_text, place, ".role");
        std::vector<content> contents;
        if (role_text == "tool") {
            std::string result;
            for (const content& c : contents_of(message->if_contains("content"), place, ".content"))
                if (const auto* t = std::get_if<text_content>(&c)) result += t->text;
            contents.emplace_back(function_result_content(json_detail::string_member(*message, "tool_call_id"), json::value(result)));
        } else {
            contents = contents_of(message->if_contains("content"), place, ".content");
        }
        if (const json::value* calls = message->if_contains("tool_calls"); calls && calls->is_array()) {
            for (const json::value& c : calls->get_array()) {
                const json::object* call = c.if_object();
                const json::value* function = call ? call->if_contains("function") : nullptr;
                if (!function || !function->is_object()) refuse(place + ".tool_calls", "a tool call needs a function");
                const json::object& f = function->get_object();
                contents.emplace_back(function_call_content(json_detail::string_member(*call, "id"), json_detail::string_member(f, "name"),
                                                            arguments_of(json_detail::string_member(f, "arguments"))));
            }
        }
        out.input.emplace_back(role, std::move(contents));
    }
    read_approval_answers(out.input, {}, "messages");
    if (const json::value* format = body.response_format; format && format->is_object())
        read_format(format->get_object(), "response_format", out.options);
    read_sampling(body, {body.max_tokens, body.max_completion_tokens}, out.options);
    if (const json::value* s = body.stream; s && s->is_bool()) out.stream = s->get_bool();
    if (const json::value* so = body.stream_options; so && so->is_object())
        if (const json::value* u = so->get_object().if_contains("include_usage"); u && u->is_bool()) out.include_usage = u->get_bool();
    return out;
}

run_request read_responses_request(const json::object& object) {
    const request_members body(object);
    run_request out;
    out.model = json_detail::string_of(body.model);
    refuse_client_tools(body);
    const json::value* input = body.input;
    if (!input || (!input->is_string() && !input->is_array())) refuse("input", "input must be text or an array of messages");
    if (input->is_string()) {
        out.input.emplace_back(chat_role::user(), std::string(input->get_string()));
    } else {
        std::size_t i = 0;
        for (const json::value& item_value : input->get_array()) {
            const element_place place{"input", i++};
            const json::object* item = item_value.if_object();
            if (!item) refuse(place + "", "an input item must be an object");
            const std::string type = json_detail::string_member(*item, "type");
            if (type == "function_call") {
                out.input.emplace_back(chat_role::assistant(), std::vector<content>{function_call_content(
                                                                   json_detail::string_member(*item, "call_id"), json_detail::string_member(*item, "name"),
                                                                   arguments_of(json_detail::string_member(*item, "arguments")))});
            } else if (type == "function_call_output") {
                out.input.emplace_back(chat_role::tool(), std::vector<content>{function_result_content(
                                                              json_detail::string_member(*item, "call_id"),
                                                              json::value(json_detail::string_member(*item, "output")))});
            } else if (type.empty() || type == "message") {
                out.input.emplace_back(role_named(string_view_member(*item, "role"), place, ".role"),
                                       contents_of(item->if_contains("content"), place, ".content"));
            } else {
                refuse(place + ".type", "input items of type \"" + type + "\" are not taken");
            }
        }
        if (out.input.empty()) refuse("input", "input must hold at least one message");
    }
    if (const json::value* text = body.text; text && text->is_object())
        if (const json::value* format = text->get_object().if_contains("format"); format && format->is_object())
            read_format(format->get_object(), "text.format", out.options);
    read_sampling(body, {body.max_output_tokens}, out.options);
    if (const json::value* s = body.stream; s && s->is_bool()) out.stream = s->get_bool();
    if (const json::value* b = body.background; b && b->is_bool()) out.background = b->get_bool();
    if (const json::value* kept = body.store; kept && !kept->is_null()) {
        if (!kept->is_bool()) refuse("store", "store must be true or false");
        out.store = kept->get_bool();
    }
    if (out.background && !out.store) refuse("store", "a background response is stored: background needs store true");
    out.previous_response_id = json_detail::string_of(body.previous_response_id);
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
