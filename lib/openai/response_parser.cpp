#include <forma/openai/response_parser.hpp>

#include "wire.hpp"
#include "../detail/json_text.hpp"
#include "../detail/parsed_numbers.hpp"

#include <boost/json/parse.hpp>

namespace forma::openai {
namespace {

// Room for the start of a non-JSON error body in a message: enough to recognise it.
constexpr std::size_t max_quoted_body = 300;

// The start of a body that is not JSON, for a message: valid UTF-8 (bad bytes as U+FFFD),
// whitespace collapsed, control characters as '?', cut between characters.
std::string quote_body(std::string_view body) {
    const std::string text = lib_detail::valid_utf8(body);
    std::string out;
    bool blank = false;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        std::size_t n = 1; // the bytes of this character
        while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            blank = !out.empty();
            i += n;
            continue;
        }
        if (out.size() + n > max_quoted_body) {
            out += "...";
            break;
        }
        if (blank) out += ' ';
        blank = false;
        if (c < 0x20 || c == 0x7F) out += '?';
        else out.append(text, i, n);
        i += n;
    }
    return out;
}

} // namespace

http_error parse_error(int status, std::string_view body) {
    auto parsed = try_from_json<wire::completion_wire>(body);
    if (parsed && parsed->error) return wire::to_http_error(status, *parsed->error);
    // Older vLLM: the error object's members at the top level.
    if (auto flat = try_from_json<wire::error_object_wire>(body); flat && flat->message)
        return wire::to_http_error(status, wire::error_wire(std::move(*flat)));
    return http_error(status, {}, quote_body(body));
}

agent_response<> parse_response(std::string_view body, int status) {
    if (status < 200 || status > 299) throw parse_error(status, body);
    const wire::completion_wire completion = wire::read_completion(body);
    if (completion.error) throw wire::to_http_error(status, *completion.error);

    agent_response<> response;
    response.response_id = completion.id.value_or("");
    response.created_at = wire::to_time(completion.created);
    if (completion.model) response.additional_properties["model"] = *completion.model;
    if (completion.usage) response.usage = wire::to_usage(*completion.usage);

    if (const wire::choice_wire* choice = wire::first_choice(completion)) {
        if (choice->finish_reason && !choice->finish_reason->empty())
            response.finish_reason = finish_reason(*choice->finish_reason);
        chat_message message(chat_role::assistant(), std::vector<content>{});
        message.message_id = response.response_id;
        message.created_at = response.created_at;
        if (const auto& m = choice->message) {
            if (m->role && !m->role->empty()) message.role = chat_role(*m->role);
            const auto& reasoning = m->reasoning_content ? m->reasoning_content : m->reasoning;
            if (reasoning && !reasoning->empty())
                message.contents.emplace_back(text_reasoning_content(*reasoning));
            if (m->content && !m->content->empty())
                message.contents.emplace_back(text_content(*m->content));
            if (m->refusal && !m->refusal->empty())
                message.contents.emplace_back(refusal_content(*m->refusal));
            if (m->tool_calls)
                for (const wire::tool_call_wire& call : *m->tool_calls) {
                    const wire::function_wire f = call.function.value_or(wire::function_wire{});
                    message.contents.emplace_back(wire::to_function_call(
                        call.id.value_or(""), f.name.value_or(""), f.arguments.value_or("")));
                }
        }
        response.messages.push_back(std::move(message));
    }
    response.raw_representation = wire::parse_raw(body);
    return response;
}

} // namespace forma::openai
