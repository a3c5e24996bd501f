#include "wire.hpp"
#include "../json/parsed_numbers.hpp"

#include <forma/json/from_json.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma::openai::detail::wire {

completion_wire read_completion(std::string_view json) { return forma::from_json<completion_wire>(json); }

boost::json::value parse_raw(std::string_view body) {
    boost::json::parse_options options;
    options.max_depth = 64; // as forma::from_json, which has read the body already
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(body, ec, {}, options);
    if (ec) throw json_error("", "invalid JSON: " + ec.message());
    (void)json_detail::repair_parsed_numbers(v); // raw: a number too large stays infinite
    return v;
}

const choice_wire* first_choice(const completion_wire& completion) noexcept {
    if (!completion.choices) return nullptr;
    for (const choice_wire& c : *completion.choices)
        if (!c.index || *c.index == 0) return &c;
    return nullptr;
}

std::optional<std::chrono::system_clock::time_point>
to_time(const std::optional<std::int64_t>& seconds) noexcept {
    using clock = std::chrono::system_clock;
    // The clock counts in units finer than seconds: bound the value so that converting cannot overflow.
    constexpr std::int64_t max_seconds =
        std::chrono::duration_cast<std::chrono::seconds>(clock::duration::max()).count();
    if (!seconds || *seconds <= 0 || *seconds >= max_seconds) return std::nullopt;
    return clock::time_point(std::chrono::duration_cast<clock::duration>(std::chrono::seconds(*seconds)));
}

usage_details to_usage(const usage_wire& usage) {
    usage_details out;
    out.input_token_count = usage.prompt_tokens;
    out.output_token_count = usage.completion_tokens;
    out.total_token_count = usage.total_tokens;
    auto keep = [&](const char* name, const std::optional<std::int64_t>& count) {
        if (count) out.additional_counts.emplace(name, *count);
    };
    if (const auto& d = usage.prompt_tokens_details) {
        out.cached_input_token_count = d->cached_tokens;
        keep("prompt_tokens_details.audio_tokens", d->audio_tokens);
    }
    if (const auto& d = usage.completion_tokens_details) {
        out.reasoning_token_count = d->reasoning_tokens;
        keep("completion_tokens_details.audio_tokens", d->audio_tokens);
        keep("completion_tokens_details.accepted_prediction_tokens", d->accepted_prediction_tokens);
        keep("completion_tokens_details.rejected_prediction_tokens", d->rejected_prediction_tokens);
    }
    return out;
}

http_error to_http_error(int status, const error_wire& error) {
    if (const auto* text = std::get_if<std::string>(&error)) return http_error(status, {}, *text);
    const auto& e = std::get<error_object_wire>(error);
    std::string code;
    if (e.code) {
        if (const auto* s = std::get_if<std::string>(&*e.code)) code = *s;
        else code = std::to_string(std::get<std::int64_t>(*e.code));
    }
    return http_error(status, e.type.value_or(""), e.message.value_or(""), std::move(code));
}

boost::json::object parse_arguments(std::string_view arguments) {
    if (arguments.empty()) return {};
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(arguments, ec);
    if (ec || !v.is_object() || json_detail::repair_parsed_numbers(v)) return {};
    return std::move(v.get_object());
}

function_call_content to_function_call(std::string id, std::string name, std::string arguments) {
    boost::json::object raw;
    raw["id"] = id;
    raw["type"] = "function";
    boost::json::object& function = raw["function"].emplace_object();
    function["name"] = name;
    boost::json::object parsed = parse_arguments(arguments);
    function["arguments"] = std::move(arguments);
    function_call_content call(std::move(id), std::move(name), std::move(parsed));
    call.raw_representation = std::move(raw);
    return call;
}

} // namespace forma::openai::detail::wire
