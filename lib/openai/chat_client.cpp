#include <forma/openai/chat_client.hpp>

#include "connection.hpp"

#include <forma/chat/answer_tool.hpp>
#include <forma/chat/provider_exchange.hpp>
#include <forma/openai/request_builder.hpp>
#include <forma/openai/response_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include <boost/json/serialize.hpp>

namespace forma::openai {

namespace asio = boost::asio;

namespace detail {

struct chat_client_state {
    chat_client_state(provider_transport::executor_type executor, client_options options)
        : link(std::move(executor), std::move(options)),
          target(link.target(link.options().azure
                                 ? "/deployments/" + link.options().azure->deployment + "/chat/completions"
                                 : std::string("/chat/completions"))) {}

    connection link;
    std::string target;
};

} // namespace detail

namespace {

// Chat Completions chunks as updates.
struct chat_stream_mapping {
    stream_parser parser;
    std::string answer_tool; // structured_output_mode::tool

    std::optional<agent_response_update> next(std::string_view& bytes) { return parser.next(bytes); }
    void finish() const { parser.finish(); }
    std::vector<agent_response_update> whole(std::string_view body) const {
        return answer_from_call(parse_response(body), answer_tool).to_updates();
    }
};

} // namespace

chat_client::chat_client(executor_type executor, client_options options)
    : state_(std::make_shared<detail::chat_client_state>(std::move(executor), std::move(options))) {}

chat_client::~chat_client() = default;

chat_client::executor_type chat_client::get_executor() const { return state_->link.transport()->executor(); }

provider_metadata chat_client::provider() const { return state_->link.provider(); }

const client_options& chat_client::options() const noexcept { return state_->link.options(); }

std::size_t chat_client::idle_connections() const noexcept { return state_->link.transport()->idle_connections(); }

asio::awaitable<agent_response<>> chat_client::get_response_core(chat_request request) {
    const client_options& settings = state_->link.options();
    chat_options& options = request.options;
    if (!options.structured_output_mode) options.structured_output_mode = settings.structured_output_mode;
    // Built now, so that a request that cannot be expressed fails before any I/O.
    std::string body = boost::json::serialize(build_request(request.messages, options, settings.model, false));
    return exchange_whole(state_->link.transport(), {.target = state_->target, .body = std::move(body)},
                          std::move(request.context),
                          [answer_tool = std::string(answer_tool_name(options))](std::string_view text) {
                              return answer_from_call(parse_response(text), answer_tool);
                          });
}

update_stream chat_client::get_streaming_response_core(chat_request request) {
    const client_options& settings = state_->link.options();
    chat_options& options = request.options;
    if (!options.structured_output_mode) options.structured_output_mode = settings.structured_output_mode;
    std::string body = boost::json::serialize(build_request(request.messages, options, settings.model, true));
    std::string answer_tool(answer_tool_name(options));
    chat_stream_mapping mapping{
        stream_parser({.sse = {.max_event_size = settings.max_stream_event}, .answer_tool = answer_tool}), answer_tool};
    return stream_updates(state_->link.transport(), {.target = state_->target, .body = std::move(body)},
                          std::move(request.context), std::move(mapping));
}

} // namespace forma::openai
