#include "answer_decision.hpp"

#include "answer_faults.hpp"

#include <forma/chat/structured_output_mode.hpp>
#include <forma/json/schema_error.hpp>
#include <forma/testing/schema_instance.hpp>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>

namespace forma::testing::detail {
namespace {

namespace json = boost::json;

bool is_continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool is_answer_tool(const offered_tool& tool) noexcept { return tool.name == final_result_tool_name; }

// The tools the turn calls: none when the request offers none, forbids them, or ends with a
// tool's result (the model answers then). The answer tool (forma's structured_output_mode::tool)
// is never among them: it carries the answer.
std::vector<const offered_tool*> tools_to_call(const answer_request& request, std::size_t per_turn,
                                               std::string& error) {
    std::vector<const offered_tool*> out;
    if (request.tools.empty() || request.ends_with_tool_result || request.tools_forbidden) return out;
    if (request.named_tool) {
        for (const offered_tool& tool : request.tools)
            if (tool.name == *request.named_tool) return is_answer_tool(tool) ? out : std::vector{&tool};
        error = "tool_choice names a function that is not among the tools.";
        return out;
    }
    const std::size_t count = request.parallel_tool_calls ? std::max<std::size_t>(per_turn, 1) : 1;
    for (std::size_t i = 0; i < request.tools.size() && out.size() < count; ++i)
        if (!is_answer_tool(request.tools[i])) out.push_back(&request.tools[i]);
    return out;
}

// The answer tool, when the request offers it and may call it.
const offered_tool* answer_tool(const answer_request& request) noexcept {
    if (request.tools_forbidden) return nullptr;
    for (const offered_tool& tool : request.tools)
        if (is_answer_tool(tool)) return &tool;
    return nullptr;
}

// A schema instance for the answer, with the configured fault unless the model obeys by now.
std::string schema_answer(const json::object& schema, const answer_request& request, const generation& options) {
    if (options.answer_fault == answer_fault::none || request.corrections >= options.answer_fault_attempts ||
        !fault_drawn(options.seed, options.answer_fault_rate))
        return json::serialize(make_instance(schema, request.prompt, options.seed));
    return with_fault(make_instance(schema, request.prompt, options.seed), schema, options.answer_fault);
}

// The first half of `text`, never cutting a UTF-8 sequence: JSON that ends too soon.
std::string cut_short(const std::string& text) {
    std::size_t end = text.size() / 2;
    while (end > 0 && is_continuation(text[end])) --end;
    return text.substr(0, std::max<std::size_t>(end, 1));
}

// Calls of `tools` with arguments made from their schemas (and the configured fault).
// @throws schema_error for parameters make_instance cannot satisfy.
std::vector<scripted_tool_call> generated_calls(const std::vector<const offered_tool*>& tools,
                                                const std::string& prompt, const generation& options) {
    std::vector<scripted_tool_call> calls;
    for (std::size_t i = 0; i < tools.size(); ++i) {
        std::string arguments = "{}";
        if (const json::object* parameters = tools[i]->parameters)
            arguments = json::serialize(make_instance(*parameters, prompt, options.seed + i));
        if (options.tool_fault == tool_call_fault::malformed_arguments) arguments = cut_short(arguments);
        calls.push_back({"call_" + std::to_string(options.request_number) + "_" + std::to_string(i),
                         options.tool_fault == tool_call_fault::unknown_tool ? "no_such_tool" : tools[i]->name,
                         std::move(arguments)});
    }
    return calls;
}

} // namespace

std::int64_t unix_now() noexcept {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::size_t count_words(std::string_view text) noexcept {
    std::size_t words = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = is_space(c);
        if (!space && !in_word) ++words;
        in_word = !space;
    }
    return words;
}

std::string_view first_words(std::string_view text, std::size_t words) noexcept {
    std::size_t seen = 0;
    bool in_word = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool space = is_space(text[i]);
        if (space && in_word && seen == words) return text.substr(0, i);
        if (!space && !in_word && seen++ == words) return text.substr(0, i);
        in_word = !space;
    }
    return text;
}

std::vector<std::string_view> pieces(std::string_view text, std::size_t size) {
    std::vector<std::string_view> out;
    size = std::max<std::size_t>(size, 1);
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = std::min(text.size(), pos + size);
        while (end > pos && end < text.size() && is_continuation(text[end])) --end;
        if (end == pos) {
            end = pos + 1;
            while (end < text.size() && is_continuation(text[end])) ++end;
        }
        out.push_back(text.substr(pos, end - pos));
        pos = end;
    }
    return out;
}

std::string content_text(const json::value* content, std::initializer_list<std::string_view> text_types) {
    if (!content) return {};
    if (const json::string* s = content->if_string()) return std::string(*s);
    std::string text;
    if (const json::array* parts = content->if_array()) {
        for (const json::value& part : *parts) {
            const json::object* p = part.if_object();
            const json::value* type = p ? p->if_contains("type") : nullptr;
            const json::value* t = p ? p->if_contains("text") : nullptr;
            if (!type || !type->is_string() || !t || !t->is_string()) continue;
            const std::string_view kind = type->get_string();
            if (std::find(text_types.begin(), text_types.end(), kind) == text_types.end()) continue;
            if (!text.empty()) text += ' ';
            text += t->get_string();
        }
    }
    return text;
}

void add_user_text(answer_request& request, std::string text) {
    // How forma::correction_text() begins: a validation retry, not a new question.
    constexpr std::string_view correction = "Your answer does not match the requested format";
    if (text.starts_with(correction)) {
        ++request.corrections;
        return;
    }
    if (!request.prompt.empty()) request.prompt += ' ';
    request.prompt += text;
    request.last_user = std::move(text);
}

scripted_reply bad_request(std::string_view message) {
    return scripted_reply::error(400, "invalid_request_error", message);
}

std::variant<boost::json::object, scripted_reply> request_object(std::string_view body) {
    boost::system::error_code ec;
    boost::json::value request = boost::json::parse(body, ec);
    if (ec) return bad_request("The request body is not valid JSON: " + ec.message() + ".");
    if (!request.is_object()) return bad_request("The request body must be a JSON object.");
    return std::move(request.get_object());
}

decided_answer decide_answer(const answer_request& request, const generation& options) {
    decided_answer out;
    const std::vector<const offered_tool*> to_call = tools_to_call(request, options.tool_calls_per_turn, out.error);
    if (!out.error.empty()) return out;
    if (request.format == answer_format::json_schema && !options.json_schema_supported) {
        out.error = "This model does not support structured outputs: " + std::string(request.schema_field) +
                    " cannot be used. Ask for the answer through a tool call instead.";
        return out;
    }
    try {
        if (!to_call.empty()) {
            out.calls = generated_calls(to_call, request.prompt, options);
            return out;
        }
        if (const offered_tool* answer = answer_tool(request)) {
            const json::object no_parameters;
            out.calls.push_back({"call_" + std::to_string(options.request_number) + "_0", answer->name,
                                 schema_answer(answer->parameters ? *answer->parameters : no_parameters, request,
                                               options)});
            return out;
        }
        switch (request.format) {
        case answer_format::json_schema:
            if (!request.schema) out.error = std::string(request.schema_field) + " must be a JSON object.";
            else out.text = schema_answer(*request.schema, request, options);
            break;
        case answer_format::json_object:
            out.text = json::serialize(json::object{{"answer", request.last_user}});
            break;
        case answer_format::text:
            out.text = "You said: " + request.last_user;
            break;
        }
    } catch (const schema_error& e) {
        out.error = e.what();
    }
    return out;
}

} // namespace forma::testing::detail
