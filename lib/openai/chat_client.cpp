#include <forma/openai/chat_client.hpp>

#include "answer_tool.hpp"
#include "parsed_stream.hpp"
#include "whole_exchange.hpp"

#include <forma/openai/request_builder.hpp>
#include <forma/openai/response_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

namespace forma::openai {

namespace asio = boost::asio;

namespace detail {

struct chat_client_state {
    chat_client_state(transport::executor_type executor, client_options options)
        : http(std::make_shared<transport>(std::move(executor), std::move(options))),
          target(http->target(http->options().azure
                                  ? "/deployments/" + http->options().azure->deployment + "/chat/completions"
                                  : std::string("/chat/completions"))) {}

    std::shared_ptr<transport> http;
    std::string target;
};

} // namespace detail

namespace {

using detail::request_line;
// Chat Completions chunks as updates.
struct chat_stream_mapping {
    stream_parser parser;
    std::string answer_tool; // structured_output_mode::tool

    std::optional<agent_response_update> next(std::string_view& bytes) { return parser.next(bytes); }
    void finish() const { parser.finish(); }
    std::vector<agent_response_update> whole(std::string_view body) const {
        return detail::answer_from_call(parse_response(body), answer_tool).to_updates();
    }
};

} // namespace

chat_client::chat_client(executor_type executor, client_options options)
    : state_(std::make_shared<detail::chat_client_state>(std::move(executor), std::move(options))) {}

chat_client::~chat_client() = default;

chat_client::executor_type chat_client::get_executor() const { return state_->http->executor(); }

provider_metadata chat_client::provider() const { return state_->http->provider(); }

const client_options& chat_client::options() const noexcept { return state_->http->options(); }

std::size_t chat_client::idle_connections() const noexcept { return state_->http->idle_connections(); }

asio::awaitable<agent_response<>> chat_client::get_response_core(chat_request request) {
    const std::vector<chat_message>& messages = request.messages;
    chat_options& options = request.options;
    const detail::transport& transport = *state_->http;
    if (!options.structured_output_mode) options.structured_output_mode = transport.options().structured_output_mode;
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(build_request(messages, options, transport.options().model, false));
    return detail::whole_exchange(state_->http, {.target = state_->target}, std::move(body),
                                  transport.start_span(messages, options, request.context, false),
                                  [answer_tool = std::string(detail::answer_tool(options))](std::string_view text) {
                                      return detail::answer_from_call(parse_response(text), answer_tool);
                                  });
}

update_stream chat_client::get_streaming_response_core(chat_request request) {
    const std::vector<chat_message>& messages = request.messages;
    chat_options& options = request.options;
    const detail::transport& transport = *state_->http;
    if (!options.structured_output_mode) options.structured_output_mode = transport.options().structured_output_mode;
    std::string body = boost::json::serialize(build_request(messages, options, transport.options().model, true));
    std::string answer_tool(detail::answer_tool(options));
    chat_stream_mapping mapping{
        stream_parser({.sse = {.max_event_size = transport.options().max_stream_event}, .answer_tool = answer_tool}),
        answer_tool};
    return update_stream(transport.executor(),
                         std::make_unique<detail::parsed_stream<chat_stream_mapping>>(
                             state_->http, request_line{.target = state_->target, .stream = true}, std::move(body),
                             transport.start_span(messages, options, request.context, true), std::move(mapping)));
}

} // namespace forma::openai
