#include <forma/openai/responses_client.hpp>

#include "connection.hpp"

#include <forma/chat/answer_tool.hpp>
#include <forma/chat/provider_exchange.hpp>
#include <forma/openai/responses_parser.hpp>
#include <forma/openai/responses_request_builder.hpp>

#include <boost/json/serialize.hpp>

namespace forma::openai {

namespace asio = boost::asio;

namespace detail {

struct responses_client_state {
    responses_client_state(provider_transport::executor_type executor, client_options options,
                           responses_client_options settings)
        : link(std::move(executor), std::move(options)), settings(std::move(settings)) {
        if (const auto& azure = link.options().azure) {
            // Dates compare as text; Azure serves the Responses API from this version on.
            if (azure->api_version < minimum_azure_version)
                throw error("azure_options::api_version \"" + azure->api_version +
                            "\" has no Responses API: use \"" + std::string(minimum_azure_version) +
                            "\" or later with responses_client");
            default_model = azure->deployment; // Azure routes a response by its model: the deployment
        } else {
            default_model = link.options().model;
        }
    }

    static constexpr std::string_view minimum_azure_version = "2025-03-01-preview";

    connection link;
    responses_client_options settings;
    std::string default_model; // the model a request names when its options name none
};

} // namespace detail

namespace {

// The path of a response the token names; the token's id holds no character a path must escape.
std::string response_path(const responses_token& token) { return "/responses/" + token.response_id; }

// A creation, a poll or a cancellation: each answers with a Response object.
asio::awaitable<agent_response<>> complete(const detail::connection& link, provider_request request,
                                           run_context context, std::string_view answer_tool = {}) {
    return exchange_whole(link.transport(), std::move(request), std::move(context),
                          [answer_tool = std::string(answer_tool)](std::string_view text) {
                              return answer_from_call(parse_responses_response(text), answer_tool);
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
        return answer_from_call(parse_responses_response(body), answer_tool).to_updates();
    }
};

} // namespace

responses_client::responses_client(executor_type executor, client_options options, responses_client_options settings)
    : state_(std::make_shared<detail::responses_client_state>(std::move(executor), std::move(options),
                                                              std::move(settings))) {}

responses_client::~responses_client() = default;

responses_client::executor_type responses_client::get_executor() const { return state_->link.transport()->executor(); }

provider_metadata responses_client::provider() const { return state_->link.provider(); }

const client_options& responses_client::options() const noexcept { return state_->link.options(); }

const responses_client_options& responses_client::settings() const noexcept { return state_->settings; }

std::size_t responses_client::idle_connections() const noexcept { return state_->link.transport()->idle_connections(); }

asio::awaitable<agent_response<>> responses_client::get_response_core(chat_request request) {
    const detail::connection& link = state_->link;
    chat_options& options = request.options;
    if (!options.structured_output_mode) options.structured_output_mode = link.options().structured_output_mode;
    const std::string_view answer_tool = answer_tool_name(options);
    if (options.continuation_token) {
        const responses_token token = responses_token::from(*options.continuation_token);
        return complete(link, {.method = "GET", .target = link.target(response_path(token))}, std::move(request.context),
                        answer_tool);
    }
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(
        build_responses_request(request.messages, options, state_->default_model, false, state_->settings));
    return complete(link, {.target = link.target("/responses"), .body = std::move(body)}, std::move(request.context),
                    answer_tool);
}

update_stream responses_client::get_streaming_response_core(chat_request call) {
    const detail::connection& link = state_->link;
    chat_options& options = call.options;
    if (!options.structured_output_mode) options.structured_output_mode = link.options().structured_output_mode;
    const std::string answer_tool(answer_tool_name(options));
    responses_stream_mapping mapping{
        .parser = responses_stream_parser(
            {.sse = {.max_event_size = link.options().max_stream_event}, .answer_tool = answer_tool}),
        .issue_tokens = options.allow_background_responses || options.continuation_token.has_value(),
        .answer_tool = answer_tool};
    provider_request request{.stream = true};
    if (options.continuation_token) {
        const responses_token token = responses_token::from(*options.continuation_token);
        std::string query = "stream=true";
        if (token.sequence_number) query += "&starting_after=" + std::to_string(*token.sequence_number);
        request.method = "GET";
        request.target = link.target(response_path(token), query);
        mapping.skip_through = token.sequence_number;
        mapping.parser.resume_after(token);
    } else {
        request.body = boost::json::serialize(
            build_responses_request(call.messages, options, state_->default_model, true, state_->settings));
        request.target = link.target("/responses");
    }
    return stream_updates(link.transport(), std::move(request), std::move(call.context), std::move(mapping));
}

asio::awaitable<agent_response<>> responses_client::cancel(const continuation_token& token, run_context context) {
    const responses_token position = responses_token::from(token);
    const detail::connection& link = state_->link;
    return complete(link, {.method = "POST", .target = link.target(response_path(position) + "/cancel"), .body = "{}"},
                    std::move(context));
}

} // namespace forma::openai
