#include <forma/middleware/structured_output_agent.hpp>

#include "../agent/output_retry.hpp"

#include <forma/model/agent_response_builder.hpp>

namespace forma {
namespace {

bool wants_json(const std::optional<response_format>& format) {
    return format && format->kind() != response_format_kind::text;
}

chat_options conversion_options(const structured_output_agent::options& options, const response_format& requested) {
    chat_options out = options.chat_options;
    out.instructions = options.instructions;
    out.response_format = requested;
    return out;
}

// The conversion call belongs to the run's trace, when the run carries one.
chat_request conversion_request(const std::string& inner_text, chat_options conversion, run_context context) {
    chat_request request{{}, std::move(conversion), std::move(context)};
    request.messages.emplace_back(chat_role::user(), inner_text);
    return request;
}

} // namespace

structured_output_agent::structured_output_agent(std::shared_ptr<agent> inner, chat_client& client)
    : structured_output_agent(std::move(inner), client, options{}) {}

structured_output_agent::structured_output_agent(std::shared_ptr<agent> inner, chat_client& client,
                                                 options opts)
    : delegating_agent(std::move(inner)), client_(client), options_(std::move(opts)) {}

boost::asio::awaitable<agent_response<>>
structured_output_agent::run_core(agent_run run) {
    agent_run_options& options = run.options;
    auto requested = options.response_format ? options.response_format : options_.response_format;
    if (!wants_json(requested)) co_return co_await delegating_agent::run_core(std::move(run));

    chat_options conversion = conversion_options(options_, *requested);
    agent_detail::output_retry retry(options, conversion, options_.max_output_retries);
    run_context context = options.context;
    options.response_format.reset(); // the inner agent answers in its own way
    options.output_validator = {};
    agent_response<> original = co_await delegating_agent::run_core(std::move(run));
    chat_request call = conversion_request(original.text(), std::move(conversion), std::move(context));
    agent_response<> converted = co_await agent_detail::get_checked_response(client_, call, std::move(retry));

    for (auto& message : converted.messages)
        if (message.author_name.empty()) message.author_name = std::string(name());
    converted.agent_id = original.agent_id;
    if (original.usage) {
        usage_details total = *original.usage;
        if (converted.usage) total += *converted.usage;
        converted.usage = total;
    }
    converted.set_original_response(std::move(original));
    co_return converted;
}

namespace {

/// The inner run's updates first, then the conversion's, as a message of its own.
class structured_streaming_run final : public update_source {
public:
    structured_streaming_run(update_stream inner, chat_client& client, chat_options conversion, run_context context,
                             agent_detail::output_retry retry, std::string author)
        : inner_(std::move(inner)), client_(client), conversion_(std::move(conversion)), context_(std::move(context)),
          retry_(std::move(retry)), author_(std::move(author)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!converting_) {
            if (auto update = co_await inner_.next()) {
                original_.add(*update);
                co_return update;
            }
            converting_ = true;
            converted_.emplace(agent_detail::get_checked_streaming_response(
                client_, conversion_request(original_.response().text(), std::move(conversion_), std::move(context_)),
                std::move(retry_)));
        }
        auto update = co_await converted_->next();
        if (update && update->role != chat_role::user()) { // not a retry's errors
            if (update->message_id.empty()) update->message_id = message_id_;
            if (update->author_name.empty()) update->author_name = author_;
        }
        co_return update;
    }

private:
    update_stream inner_;
    chat_client& client_;
    chat_options conversion_;
    run_context context_;
    agent_detail::output_retry retry_;
    std::string author_;
    agent_response_builder original_;
    bool converting_ = false;
    std::optional<update_stream> converted_;
    std::string message_id_ = make_unique_id(); // keeps the converted answer apart when merged
};

} // namespace

// g++ 12 -O2 warns that the copied run_context's trace may be used uninitialized where it is
// destroyed, a false positive (the optional is engaged or not, never half made).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
update_stream structured_output_agent::run_streaming_core(agent_run run) {
    agent_run_options& options = run.options;
    auto requested = options.response_format ? options.response_format : options_.response_format;
    if (!wants_json(requested)) return delegating_agent::run_streaming_core(std::move(run));
    chat_options conversion = conversion_options(options_, *requested);
    agent_detail::output_retry retry(options, conversion, options_.max_output_retries);
    run_context context = options.context;
    options.response_format.reset();
    options.output_validator = {};
    update_stream inner_stream = delegating_agent::run_streaming_core(std::move(run));
    return update_stream(get_executor(),
                         std::make_unique<structured_streaming_run>(std::move(inner_stream), client_,
                                                                    std::move(conversion), std::move(context),
                                                                    std::move(retry), std::string(name())));
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

} // namespace forma
