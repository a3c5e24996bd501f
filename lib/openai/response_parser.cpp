#include <forma/openai/response_parser.hpp>

#include "wire.hpp"
#include "../json/body_excerpt.hpp"
#include "../json/parsed_numbers.hpp"

#include <boost/json/parse.hpp>

namespace forma::openai {

http_error parse_error(int status, std::string_view body) {
    auto parsed = try_from_json<detail::wire::completion_wire>(body);
    if (parsed && parsed->error) return detail::wire::to_http_error(status, *parsed->error);
    // Older vLLM: the error object's members at the top level.
    if (auto flat = try_from_json<detail::wire::error_object_wire>(body); flat && flat->message)
        return detail::wire::to_http_error(status, detail::wire::error_wire(std::move(*flat)));
    return http_error(status, {}, json_detail::body_excerpt(body));
}

agent_response<> parse_response(std::string_view body, int status) {
    if (status < 200 || status > 299) throw parse_error(status, body);
    const detail::wire::completion_wire completion = detail::wire::read_completion(body);
    if (completion.error) throw detail::wire::to_http_error(status, *completion.error);

    agent_response<> response;
    response.response_id = completion.id.value_or("");
    response.created_at = detail::wire::to_time(completion.created);
    if (completion.model) response.additional_properties["model"] = *completion.model;
    if (completion.usage) response.usage = detail::wire::to_usage(*completion.usage);

    if (const detail::wire::choice_wire* choice = detail::wire::first_choice(completion)) {
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
                for (const detail::wire::tool_call_wire& call : *m->tool_calls) {
                    const detail::wire::function_wire f = call.function.value_or(detail::wire::function_wire{});
                    message.contents.emplace_back(detail::wire::to_function_call(
                        call.id.value_or(""), f.name.value_or(""), f.arguments.value_or("")));
                }
        }
        response.messages.push_back(std::move(message));
    }
    response.raw_representation = detail::wire::parse_raw(body);
    return response;
}

} // namespace forma::openai
