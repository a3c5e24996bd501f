#include <forma/anthropic/messages_client.hpp>

#include <forma/anthropic/request_builder.hpp>
#include <forma/anthropic/response_parser.hpp>
#include <forma/anthropic/stream_parser.hpp>
#include <forma/chat/answer_tool.hpp>
#include <forma/chat/provider_exchange.hpp>
#include <forma/chat/provider_transport.hpp>
#include <forma/json/from_json.hpp>

#include <boost/json/serialize.hpp>

namespace forma::anthropic {

namespace detail {

namespace {

provider_transport_options transport_options(const client_options& options) {
    std::vector<std::pair<std::string, std::string>> headers{{"anthropic-version", options.version}};
    if (!options.api_key.empty()) headers.emplace_back("x-api-key", options.api_key); // a credential-named header
    if (!options.betas.empty()) {
        std::string betas;
        for (const std::string& beta : options.betas) betas.append(betas.empty() ? "" : ",").append(beta);
        headers.emplace_back("anthropic-beta", std::move(betas));
    }
    return transport_options_from(options, std::move(headers), ratelimit_headers,
                                  [](int status, std::string_view body) { return parse_error(status, body); });
}

struct token_count_wire {
    std::int64_t input_tokens = 0;
};
BOOST_DESCRIBE_STRUCT(token_count_wire, (), (input_tokens))

} // namespace

struct messages_client_state {
    messages_client_state(provider_transport::executor_type executor, client_options settings)
        : options(std::move(settings)),
          transport(std::make_shared<provider_transport>(std::move(executor), transport_options(options))),
          messages_target(transport->target("/messages")), count_target(transport->target("/messages/count_tokens")) {}

    client_options options;
    std::shared_ptr<provider_transport> transport;
    std::string messages_target;
    std::string count_target;
};

} // namespace detail

namespace {

struct messages_stream_mapping {
    stream_parser parser;
    std::string answer_tool;

    std::optional<agent_response_update> next(std::string_view& bytes) { return parser.next(bytes); }
    void finish() const { parser.finish(); }
    std::vector<agent_response_update> whole(std::string_view body) const {
        return answer_from_call(parse_message(body), answer_tool).to_updates();
    }
};

} // namespace

messages_client::messages_client(executor_type executor, client_options options)
    : state_(std::make_shared<detail::messages_client_state>(std::move(executor), std::move(options))) {}

messages_client::~messages_client() = default;

messages_client::executor_type messages_client::get_executor() const { return state_->transport->executor(); }

const client_options& messages_client::options() const noexcept { return state_->options; }

provider_metadata messages_client::provider() const {
    const structured_output_mode first = state_->options.structured_output_mode;
    const structured_output_mode other =
        first == structured_output_mode::native ? structured_output_mode::tool : structured_output_mode::native;
    return {.name = "anthropic",
            .server_address = state_->transport->server().host,
            .server_port = state_->transport->server().port,
            .default_model = state_->options.model,
            .structured_output_modes = {first, other},
            .schema_dialect = schema_dialect::openai_strict};
}

boost::asio::awaitable<agent_response<>> messages_client::get_response_core(chat_request request) {
    chat_options& options = request.options;
    if (!options.structured_output_mode) options.structured_output_mode = state_->options.structured_output_mode;
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(build_request(request.messages, options, state_->options, false));
    return exchange_whole(state_->transport, {.target = state_->messages_target, .body = std::move(body)},
                          std::move(request.context),
                          [answer_tool = std::string(answer_tool_name(options))](std::string_view text) {
                              return answer_from_call(parse_message(text), answer_tool);
                          });
}

update_stream messages_client::get_streaming_response_core(chat_request request) {
    chat_options& options = request.options;
    if (!options.structured_output_mode) options.structured_output_mode = state_->options.structured_output_mode;
    std::string body = boost::json::serialize(build_request(request.messages, options, state_->options, true));
    std::string answer_tool(answer_tool_name(options));
    messages_stream_mapping mapping{
        stream_parser({.sse = {.max_event_size = state_->options.max_stream_event}, .answer_tool = answer_tool}),
        answer_tool};
    return stream_updates(state_->transport, {.target = state_->messages_target, .body = std::move(body)},
                          std::move(request.context), std::move(mapping));
}

boost::asio::awaitable<std::int64_t> messages_client::count_tokens(std::span<const chat_message> messages,
                                                                    chat_options options) {
    if (!options.structured_output_mode) options.structured_output_mode = state_->options.structured_output_mode;
    std::string body = boost::json::serialize(build_count_tokens_request(messages, options, state_->options));
    const std::shared_ptr<detail::messages_client_state> state = state_; // the client may go first
    provider_request request{.target = state->count_target, .body = std::move(body)};
    provider_transport::whole_body answer = co_await state->transport->exchange(std::move(request), run_context());
    co_return from_json<detail::token_count_wire>(answer.text).input_tokens;
}

} // namespace forma::anthropic
