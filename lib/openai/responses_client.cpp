#include <forma/openai/responses_client.hpp>

#include "answer_tool.hpp"
#include "parsed_stream.hpp"
#include "whole_exchange.hpp"

#include <forma/openai/responses_parser.hpp>
#include <forma/openai/responses_request_builder.hpp>

#include <boost/json/serialize.hpp>

namespace forma::openai {

namespace asio = boost::asio;

namespace detail {

struct responses_client_state {
    responses_client_state(transport::executor_type executor, client_options options,
                           responses_client_options settings)
        : http(std::make_shared<transport>(std::move(executor), std::move(options))),
          settings(std::move(settings)) {
        if (const auto& azure = http->options().azure) {
            // Dates compare as text; Azure serves the Responses API from this version on.
            if (azure->api_version < minimum_azure_version)
                throw error("azure_options::api_version \"" + azure->api_version +
                            "\" has no Responses API: use \"" + std::string(minimum_azure_version) +
                            "\" or later with responses_client");
            default_model = azure->deployment; // Azure routes a response by its model: the deployment
        } else {
            default_model = http->options().model;
        }
    }

    static constexpr std::string_view minimum_azure_version = "2025-03-01-preview";

    std::shared_ptr<transport> http;
    responses_client_options settings;
    std::string default_model; // the model a request names when its options name none
};

} // namespace detail

namespace {

using detail::request_line;

// The path of a response the token names; the token's id holds no character a path must escape.
std::string response_path(const responses_token& token) { return "/responses/" + token.response_id; }

// A creation, a poll or a cancellation: each answers with a Response object.
asio::awaitable<agent_response<>> complete(std::shared_ptr<detail::transport> owner, request_line request,
                                           std::string body, telemetry::operation_span span,
                                           std::string_view answer_tool = {}) {
    return detail::whole_exchange(std::move(owner), std::move(request), std::move(body), std::move(span),
                                  [answer_tool = std::string(answer_tool)](std::string_view text) {
                                      return detail::answer_from_call(parse_responses_response(text), answer_tool);
                                  });
}

// Responses events as updates; in a background run each update carries where the stream stands.
struct responses_stream_mapping {
    responses_stream_parser parser;
    bool issue_tokens = false;
    std::optional<std::int64_t> skip_through{}; // a resumed stream: events the caller has had
    std::string answer_tool{};                  // structured_output_mode::tool

    std::optional<agent_response_update> next(std::string_view& bytes) {
        for (;;) {
            std::optional<agent_response_update> update = parser.next(bytes);
            if (!update) return update;
            const auto at = parser.event_sequence();
            if (skip_through && at && *at <= *skip_through) continue; // sent again by the server
            if (issue_tokens && !parser.finished()) {
                // Only a position the client can resume from: a response id and an event number.
                const responses_token position = parser.position();
                if (responses_token::valid_id(position.response_id) && position.sequence_number &&
                    *position.sequence_number >= 0)
                    update->continuation_token = position.to_continuation_token();
            }
            return update;
        }
    }
    void finish() const { parser.finish(); }
    std::vector<agent_response_update> whole(std::string_view body) const {
        // Handed out whole, a resumed response would repeat what the caller has had.
        if (skip_through)
            throw stream_error(stream_error_kind::protocol,
                               "the server answered the resumption of a stream with a whole response, not "
                               "its events after sequence number " + std::to_string(*skip_through) +
                                   "; poll it without streaming instead");
        return detail::answer_from_call(parse_responses_response(body), answer_tool).to_updates();
    }
};

} // namespace

responses_client::responses_client(executor_type executor, client_options options, responses_client_options settings)
    : state_(std::make_shared<detail::responses_client_state>(std::move(executor), std::move(options),
                                                              std::move(settings))) {}

responses_client::~responses_client() = default;

responses_client::executor_type responses_client::get_executor() const { return state_->http->executor(); }

provider_metadata responses_client::provider() const { return state_->http->provider(); }

const client_options& responses_client::options() const noexcept { return state_->http->options(); }

const responses_client_options& responses_client::settings() const noexcept { return state_->settings; }

std::size_t responses_client::idle_connections() const noexcept { return state_->http->idle_connections(); }

asio::awaitable<agent_response<>> responses_client::get_response_core(chat_request request) {
    const std::vector<chat_message>& messages = request.messages;
    chat_options& options = request.options;
    const detail::transport& transport = *state_->http;
    if (!options.structured_output_mode) options.structured_output_mode = transport.options().structured_output_mode;
    const std::string_view answer_tool = detail::answer_tool(options);
    if (options.continuation_token) {
        const responses_token token = responses_token::from(*options.continuation_token);
        return complete(state_->http, {.method = "GET", .target = transport.target(response_path(token))}, {},
                        transport.start_span({}, options, request.context, false), answer_tool);
    }
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(
        build_responses_request(messages, options, state_->default_model, false, state_->settings));
    return complete(state_->http, {.target = transport.target("/responses")}, std::move(body),
                    transport.start_span(messages, options, request.context, false), answer_tool);
}

update_stream responses_client::get_streaming_response_core(chat_request call) {
    std::vector<chat_message>& messages = call.messages;
    chat_options& options = call.options;
    const detail::transport& transport = *state_->http;
    if (!options.structured_output_mode) options.structured_output_mode = transport.options().structured_output_mode;
    const std::string answer_tool(detail::answer_tool(options));
    responses_stream_mapping mapping{
        .parser = responses_stream_parser(
            {.sse = {.max_event_size = transport.options().max_stream_event}, .answer_tool = answer_tool}),
        .issue_tokens = options.allow_background_responses || options.continuation_token.has_value(),
        .answer_tool = answer_tool};
    request_line request{.stream = true};
    std::string body;
    if (options.continuation_token) {
        const responses_token token = responses_token::from(*options.continuation_token);
        std::string query = "stream=true";
        if (token.sequence_number) query += "&starting_after=" + std::to_string(*token.sequence_number);
        request.method = "GET";
        request.target = transport.target(response_path(token), query);
        mapping.skip_through = token.sequence_number;
        mapping.parser.resume_after(token);
        messages.clear(); // a resumption continues the run; its span has no new input
    } else {
        body = boost::json::serialize(
            build_responses_request(messages, options, state_->default_model, true, state_->settings));
        request.target = transport.target("/responses");
    }
    auto span = transport.start_span(messages, options, call.context, true);
    return update_stream(transport.executor(), std::make_unique<detail::parsed_stream<responses_stream_mapping>>(
                                                   state_->http, std::move(request), std::move(body),
                                                   std::move(span), std::move(mapping)));
}

asio::awaitable<agent_response<>> responses_client::cancel(const continuation_token& token, run_context context) {
    const responses_token position = responses_token::from(token);
    const detail::transport& transport = *state_->http;
    return complete(state_->http,
                    {.method = "POST", .target = transport.target(response_path(position) + "/cancel")}, "{}",
                    transport.start_span({}, {}, context, false));
}

} // namespace forma::openai
