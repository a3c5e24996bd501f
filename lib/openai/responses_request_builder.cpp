#include <forma/openai/responses_request_builder.hpp>

#include <forma/chat/answer_tool.hpp>
#include "../chat/request_parts.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::openai {
namespace {

using chat_detail::essence;
using chat_detail::starts_with_ci;

[[noreturn]] void cannot_send(std::string_view what, const chat_role& role) {
    throw error("an OpenAI Responses " + role.value() + " message cannot hold " + std::string(what));
}

bool is_input_role(const chat_role& role) {
    return role == chat_role::system() || role == chat_role::user() || role == chat_role(std::string("developer"));
}

boost::json::object image_part(std::string url) {
    return {{"type", "input_image"}, {"image_url", std::move(url)}, {"detail", "auto"}};
}

boost::json::object data_part(const data_content& data, const chat_role& role) {
    const std::string type = essence(data.media_type);
    if (starts_with_ci(type, "image/")) return image_part(data.data_uri());
    if (type == "application/pdf")
        return {{"type", "input_file"},
                {"file_data", data.data_uri()},
                {"filename", data.name.empty() ? "document.pdf" : data.name}};
    cannot_send("data of media type \"" + data.media_type + "\" (images and PDF only)", role);
}

// The items of one message, in the order of its contents.
class item_writer {
public:
    item_writer(boost::json::array& out, const chat_message& message) : out_(out), message_(message) {
        const chat_role& role = message.role;
        if (!is_input_role(role) && role != chat_role::assistant() && role != chat_role::tool())
            throw error("an OpenAI Responses message cannot have the role \"" + role.value() +
                        "\": the roles are system, developer, user, assistant and tool");
    }

    void add(const content& c) {
        const chat_role& role = message_.role;
        if (const auto* t = std::get_if<text_content>(&c)) {
            if (role == chat_role::tool())
                throw error("an OpenAI tool message needs a function_result_content (the call id it "
                            "answers); put the tool's output there instead of in text");
            add_text(t->text);
        } else if (const auto* r = std::get_if<refusal_content>(&c)) {
            if (role != chat_role::assistant()) cannot_send("a refusal", role);
            add_text(r->refusal); // the API takes no refusal as input: the model sees what it said
        } else if (const auto* d = std::get_if<data_content>(&c)) {
            if (role != chat_role::user()) cannot_send("data contents (images, files)", role);
            parts_.push_back(data_part(*d, role));
        } else if (const auto* u = std::get_if<uri_content>(&c)) {
            if (role != chat_role::user()) cannot_send("uri contents (images)", role);
            if (!starts_with_ci(essence(u->media_type), "image/"))
                cannot_send("a URI of media type \"" + u->media_type + "\" (only images can be sent by URI)", role);
            parts_.push_back(image_part(u->uri));
        } else if (const auto* call = std::get_if<function_call_content>(&c)) {
            if (role != chat_role::assistant()) cannot_send("a function call", role);
            flush();
            out_.push_back(boost::json::object{{"type", "function_call"},
                                               {"call_id", call->call_id},
                                               {"name", call->name},
                                               {"arguments", boost::json::serialize(call->arguments)}});
        } else if (const auto* result = std::get_if<function_result_content>(&c)) {
            flush();
            out_.push_back(boost::json::object{
                {"type", "function_call_output"}, {"call_id", result->call_id}, {"output", chat_detail::result_text(*result)}});
        } else if (const auto* reasoning = std::get_if<text_reasoning_content>(&c)) {
            add_reasoning(*reasoning);
        } else if (const auto* errors = std::get_if<output_errors_content>(&c)) {
            add_text(correction_text(*errors)); // a validation retry's request
        }
        // Usage, errors and unknown kinds are output, not input; approvals stay with the tool loop.
    }

    void flush() {
        if (parts_.empty()) return;
        boost::json::object item{{"type", "message"}, {"role", message_.role.value()}};
        const bool only_text = std::all_of(parts_.begin(), parts_.end(), [](const boost::json::value& p) {
            return p.as_object().at("type") == "input_text";
        });
        if (only_text) {
            std::string text;
            for (const boost::json::value& p : parts_) text += p.as_object().at("text").as_string();
            item["content"] = std::move(text);
        } else {
            item["content"] = std::move(parts_);
        }
        parts_ = {};
        out_.push_back(std::move(item));
    }

private:
    void add_text(const std::string& text) { parts_.push_back(boost::json::object{{"type", "input_text"}, {"text", text}}); }

    // Only reasoning the API issued (it has an item id) can go back.
    void add_reasoning(const text_reasoning_content& reasoning) {
        const boost::json::value* id = reasoning.additional_properties.if_contains("id");
        if (message_.role != chat_role::assistant() || !id || !id->is_string()) return;
        flush();
        boost::json::array summary;
        if (!reasoning.text.empty())
            summary.push_back(boost::json::object{{"type", "summary_text"}, {"text", reasoning.text}});
        boost::json::object item{{"type", "reasoning"}, {"id", *id}, {"summary", std::move(summary)}};
        if (reasoning.protected_data) item["encrypted_content"] = *reasoning.protected_data;
        out_.push_back(std::move(item));
    }

    boost::json::array& out_;
    const chat_message& message_;
    boost::json::array parts_{}; // text and media of the message item being gathered
};

boost::json::object format_of(const response_format& format) {
    switch (format.kind()) {
    case response_format_kind::text: return {{"type", "text"}};
    case response_format_kind::json: return {{"type", "json_object"}};
    case response_format_kind::json_schema: break;
    }
    boost::json::object out{{"type", "json_schema"}, {"name", format.name()}};
    if (!format.description().empty()) out["description"] = format.description();
    out["schema"] = format.schema();
    if (format.strict()) out["strict"] = *format.strict();
    return out;
}

boost::json::value tool_choice_of(const tool_choice& choice) {
    if (const char* keyword = chat_detail::tool_choice_keyword(choice)) return keyword;
    return boost::json::object{{"type", "function"}, {"name", choice.function_name()}};
}

void add_tools(boost::json::object& body, const chat_options& options) {
    if (options.tools.empty()) return;
    boost::json::array& tools = body["tools"].emplace_array();
    for (const function_tool& tool : options.tools) {
        boost::json::object declaration{{"type", "function"}, {"name", tool.name()}};
        if (!tool.description().empty()) declaration["description"] = tool.description();
        declaration["parameters"] = tool.parameters();
        declaration["strict"] = tool.strict();
        tools.push_back(std::move(declaration));
    }
    if (options.tool_choice) body["tool_choice"] = tool_choice_of(*options.tool_choice);
    if (options.parallel_tool_calls) body["parallel_tool_calls"] = *options.parallel_tool_calls;
}

// The index of the first message after the last answer the server keeps, and that answer's id.
std::pair<std::size_t, std::string> server_history(std::span<const chat_message> messages) {
    for (std::size_t i = messages.size(); i-- > 0;)
        if (messages[i].role == chat_role::assistant() && !messages[i].message_id.empty())
            return {i + 1, messages[i].message_id};
    return {0, {}};
}

} // namespace

boost::json::object build_responses_request(std::span<const chat_message> messages, const chat_options& requested,
                                            std::string_view default_model, bool stream,
                                            const responses_client_options& settings) {
    std::optional<chat_options> by_tool;
    const chat_options& options = options_as_sent(requested, by_tool);
    const std::string_view model = chat_detail::model_to_send(options, default_model, "an OpenAI Responses request");
    if (options.continuation_token)
        throw error("build_responses_request cannot send a continuation token: responses_client polls or "
                    "resumes the response it names instead of creating one");
    if (!options.stop_sequences.empty())
        throw error("the OpenAI Responses API has no stop sequences; remove chat_options::stop_sequences");
    if (options.seed) throw error("the OpenAI Responses API has no seed; remove chat_options::seed");
    if (options.allow_background_responses && settings.store == false)
        throw error("a background response needs store: responses_client_options::store is false");
    if (settings.server_side_conversation && settings.store == false)
        throw error("server_side_conversation needs stored responses: responses_client_options::store is false");
    chat_detail::check_additional_properties(options, {"input", "stream"}, "the OpenAI client");
    chat_detail::check_tools(options);

    boost::json::object body;
    body["model"] = model;
    if (!options.instructions.empty()) body["instructions"] = options.instructions;
    std::size_t first = 0;
    if (settings.server_side_conversation) {
        auto [after, id] = server_history(messages);
        if (!id.empty()) {
            body["previous_response_id"] = std::move(id);
            first = after;
        }
    }
    boost::json::array& input = body["input"].emplace_array();
    for (const chat_message& message : messages.subspan(first)) {
        item_writer writer(input, message);
        for (const content& c : message.contents) writer.add(c);
        writer.flush();
    }
    if (input.empty() && options.instructions.empty())
        throw error("an OpenAI Responses request needs at least one message to send or instructions");

    if (options.temperature) body["temperature"] = *options.temperature;
    if (options.top_p) body["top_p"] = *options.top_p;
    if (options.max_output_tokens) body["max_output_tokens"] = *options.max_output_tokens;
    if (options.response_format) body["text"] = boost::json::object{{"format", format_of(*options.response_format)}};
    add_tools(body, options);
    if (!settings.reasoning_effort.empty() || !settings.reasoning_summary.empty()) {
        boost::json::object& reasoning = body["reasoning"].emplace_object();
        if (!settings.reasoning_effort.empty()) reasoning["effort"] = settings.reasoning_effort;
        if (!settings.reasoning_summary.empty()) reasoning["summary"] = settings.reasoning_summary;
    }
    if (settings.include_encrypted_reasoning) body["include"] = boost::json::array{"reasoning.encrypted_content"};
    if (settings.store) body["store"] = *settings.store;
    if (!settings.metadata.empty()) body["metadata"] = settings.metadata;
    if (options.allow_background_responses) body["background"] = true;
    if (stream) body["stream"] = true;
    for (const auto& property : options.additional_properties) body[property.key()] = property.value();
    chat_detail::require_utf8(body, "the OpenAI request");
    return body;
}

} // namespace forma::openai
