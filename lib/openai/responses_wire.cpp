#include "responses_wire.hpp"

#include <algorithm>

namespace forma::openai::detail::responses_wire {
namespace {

function_call_content to_function_call(const item_wire& item) {
    const std::string* text = text_of(item.arguments);
    std::string arguments = text ? *text : std::string();
    boost::json::object parsed = wire::parse_arguments(arguments);
    // The call as the API sent it, arguments as text: arguments that are not JSON are not lost.
    boost::json::object raw{{"type", "function_call"}};
    if (item.id) raw["id"] = *item.id;
    raw["call_id"] = item.call_id.value_or("");
    raw["name"] = item.name.value_or("");
    raw["arguments"] = arguments;
    function_call_content call(item.call_id.value_or(""), item.name.value_or(""), std::move(parsed));
    call.raw_representation = std::move(raw);
    return call;
}

unknown_content to_unknown(const std::string& type, const boost::json::value* raw) {
    boost::json::object members;
    if (raw && raw->is_object()) members = raw->get_object();
    // The names every content has are not the item's to use.
    for (const char* reserved : {"type", "raw_representation", "additional_properties"}) members.erase(reserved);
    return unknown_content(type, std::move(members));
}

} // namespace

usage_details to_usage(const usage_wire& usage) {
    usage_details out;
    out.input_token_count = usage.input_tokens;
    out.output_token_count = usage.output_tokens;
    out.total_token_count = usage.total_tokens;
    if (usage.input_tokens_details) out.cached_input_token_count = usage.input_tokens_details->cached_tokens;
    if (usage.output_tokens_details) out.reasoning_token_count = usage.output_tokens_details->reasoning_tokens;
    return out;
}

void add_item_contents(const item_wire& item, const boost::json::value* raw, std::vector<content>& out) {
    const std::string type = item.type.value_or("");
    if (type == "message") {
        // Adjacent parts join as a stream's deltas do.
        if (item.content)
            for (const part_wire& part : *item.content) {
                if (part.type == "refusal") {
                    if (!part.refusal || part.refusal->empty()) continue;
                    if (auto* last = out.empty() ? nullptr : std::get_if<refusal_content>(&out.back()))
                        last->refusal += *part.refusal;
                    else
                        out.emplace_back(refusal_content(*part.refusal));
                } else if (part.text && !part.text->empty()) {
                    if (auto* last = out.empty() ? nullptr : std::get_if<text_content>(&out.back()))
                        last->text += *part.text;
                    else
                        out.emplace_back(text_content(*part.text));
                }
            }
    } else if (type == "reasoning") {
        std::string text;
        if (item.summary)
            for (const part_wire& part : *item.summary) text += part.text.value_or("");
        if (item.content) // raw reasoning, from servers that show it (gpt-oss)
            for (const part_wire& part : *item.content) text += part.text.value_or("");
        if (text.empty() && !item.encrypted_content) return;
        text_reasoning_content reasoning(std::move(text), item.encrypted_content);
        // The item's id: the API wants it back with the encrypted content.
        if (item.id) reasoning.additional_properties["id"] = *item.id;
        out.emplace_back(std::move(reasoning));
    } else if (type == "function_call") {
        out.emplace_back(to_function_call(item));
    } else {
        out.emplace_back(to_unknown(type, raw));
    }
}

std::optional<forma::finish_reason> finish_reason_of(const response_wire& response, bool calls_functions,
                                                     std::string_view answer_tool) {
    // A server that leaves the status out has finished.
    const std::string_view status = response.status ? std::string_view(*response.status) : "completed";
    if (status == "incomplete") {
        const std::string reason = response.incomplete_details ? response.incomplete_details->reason.value_or("") : "";
        if (reason == "max_output_tokens") return finish_reason::length();
        if (reason == "content_filter") return finish_reason::content_filter();
        return reason.empty() ? finish_reason::length() : finish_reason(reason);
    }
    if (status == "completed") {
        const bool calls = calls_functions || (response.output && std::any_of(response.output->begin(),
                                                                               response.output->end(),
                                                                               [&](const item_wire& item) {
                                                                                   return item.type == "function_call" &&
                                                                                          item.name != answer_tool;
                                                                               }));
        return calls ? finish_reason::tool_calls() : finish_reason::stop();
    }
    return std::nullopt;
}

http_error failure_of(const response_wire& response, int status) {
    if (response.error) {
        http_error e = wire::to_http_error(status, *response.error);
        if (!e.message().empty()) return e;
    }
    return http_error(status, "server_error",
                      "the response " + response.id.value_or("") + " failed without saying why");
}

bool is_unfinished(std::string_view status) noexcept { return status == "queued" || status == "in_progress"; }

} // namespace forma::openai::detail::responses_wire
