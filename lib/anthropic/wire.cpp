#include "wire.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::anthropic::detail {

void update_usage(usage_wire& totals, const usage_wire& later) {
    if (later.input_tokens) totals.input_tokens = later.input_tokens;
    if (later.output_tokens) totals.output_tokens = later.output_tokens;
    if (later.cache_creation_input_tokens) totals.cache_creation_input_tokens = later.cache_creation_input_tokens;
    if (later.cache_read_input_tokens) totals.cache_read_input_tokens = later.cache_read_input_tokens;
}

usage_details to_usage(const usage_wire& usage) {
    usage_details out;
    if (usage.input_tokens || usage.cache_creation_input_tokens || usage.cache_read_input_tokens)
        out.input_token_count = usage.input_tokens.value_or(0) + usage.cache_creation_input_tokens.value_or(0) +
                                usage.cache_read_input_tokens.value_or(0);
    out.output_token_count = usage.output_tokens;
    if (out.input_token_count && out.output_token_count)
        out.total_token_count = *out.input_token_count + *out.output_token_count;
    out.cached_input_token_count = usage.cache_read_input_tokens;
    if (usage.cache_creation_input_tokens)
        out.additional_counts.emplace("cache_creation_input_tokens", *usage.cache_creation_input_tokens);
    return out;
}

finish_reason to_finish_reason(std::string_view stop_reason) {
    if (stop_reason == "end_turn" || stop_reason == "stop_sequence") return finish_reason::stop();
    if (stop_reason == "max_tokens" || stop_reason == "model_context_window_exceeded") return finish_reason::length();
    if (stop_reason == "tool_use") return finish_reason::tool_calls();
    if (stop_reason == "refusal") return finish_reason::content_filter();
    return finish_reason(std::string(stop_reason));
}

refusal_content refusal_of(std::string_view explanation) {
    return refusal_content(explanation.empty() ? std::string("the model declined to answer (stop reason \"refusal\")")
                                               : std::string(explanation));
}

text_reasoning_content thinking_of(std::string text, std::string signature, bool redacted) {
    // llama-server signs nothing: an empty signature is none, and nothing goes back.
    text_reasoning_content out(std::move(text), signature.empty() ? std::nullopt : std::optional(std::move(signature)));
    if (redacted) out.additional_properties["redacted"] = true;
    return out;
}

function_call_content call_of(std::string id, std::string name, boost::json::value input) {
    if (boost::json::object* object = input.if_object())
        return function_call_content(std::move(id), std::move(name), std::move(*object));
    function_call_content call(std::move(id), std::move(name));
    if (input.is_null()) return call;
    call.raw_representation = boost::json::object{
        {"type", "tool_use"},
        {"id", call.call_id},
        {"name", call.name},
        {"arguments", input.is_string() ? input.get_string() : boost::json::string(boost::json::serialize(input))}};
    return call;
}

function_call_content call_of_text(std::string id, std::string name, std::string_view input) {
    if (input.empty()) return function_call_content(std::move(id), std::move(name));
    boost::system::error_code ec;
    boost::json::value parsed = boost::json::parse(input, ec);
    return call_of(std::move(id), std::move(name), ec ? boost::json::value(boost::json::string(input)) : std::move(parsed));
}

http_error to_http_error(int status, const error_wire& error) {
    return http_error(status, error.type.value_or(""), error.message.value_or(""));
}

} // namespace forma::anthropic::detail
