#pragma once
// The provider kit's two exchanges: a request answered by one body, read whole by the
// provider's parser, and a request answered by an event stream, read as it arrives by the
// provider's mapping into updates.

#include <forma/chat/provider_transport.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_update.hpp>

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma {

/** Sends `request` and reads its whole answer with `parse`, a function of the body's text to
    agent_response<>; the response carries what the rate-limit headers said.
*/
template <class Parse>
boost::asio::awaitable<agent_response<>> exchange_whole(std::shared_ptr<provider_transport> transport,
                                                        provider_request request, run_context context, Parse parse) {
    provider_transport::whole_body answer = co_await transport->exchange(std::move(request), std::move(context));
    agent_response<> response = parse(std::string_view(answer.text));
    if (answer.rate_limits) response.rate_limits = std::move(answer.rate_limits);
    co_return response;
}

/** The update_source of a streamed answer: sends the request at the first next(), then hands
    the body to `Mapping` as it arrives. A Mapping has:

        // The next update the bytes make, consuming what it read; nullopt when they make none yet.
        std::optional<agent_response_update> next(std::string_view& bytes);
        // The body has ended: throws when the stream was cut short.
        void finish();
        // A server that ignored the request for a stream and answered with one JSON body.
        std::vector<agent_response_update> whole(std::string_view body);

    The first update carries what the rate-limit headers said.
*/
template <class Mapping>
class provider_update_source final : public update_source {
public:
    provider_update_source(std::shared_ptr<provider_transport> transport, provider_request request,
                           run_context context, Mapping mapping)
        : body_(std::move(transport)), request_(std::move(request)), context_(std::move(context)),
          mapping_(std::move(mapping)) {
        request_.stream = true;
    }

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        if (ended_) co_return std::nullopt;
        try {
            if (!started_) co_await start();
            for (;;) {
                std::optional<agent_response_update> update;
                if (whole_next_ < whole_.size())
                    update = std::move(whole_[whole_next_++]);
                else
                    update = mapping_.next(pending_);
                if (update) {
                    if (!limits_told_) {
                        limits_told_ = true;
                        if (!update->rate_limits) update->rate_limits = body_.rate_limits();
                    }
                    co_return update;
                }
                if (body_ended_) {
                    if (!replied_whole_) mapping_.finish();
                    ended_ = true;
                    co_return std::nullopt;
                }
                pending_ = co_await body_.read_some();
                body_ended_ = pending_.empty();
            }
        } catch (...) {
            ended_ = true;
            body_.close();
            throw;
        }
    }

private:
    boost::asio::awaitable<void> start() {
        started_ = true;
        co_await body_.open(std::move(request_), context_); // the body is not kept while the answer streams
        // A server that ignores the request for a stream answers with one JSON body: hand it out as updates.
        if (body_.is_whole_json()) {
            replied_whole_ = true;
            const std::string text = co_await body_.read_rest();
            whole_ = mapping_.whole(text);
            body_ended_ = true;
        }
    }

    provider_body_stream body_;
    provider_request request_;
    run_context context_;
    Mapping mapping_;
    std::string_view pending_{};
    std::vector<agent_response_update> whole_{}; // a whole response's updates, handed out in turn
    std::size_t whole_next_ = 0;
    bool started_ = false;
    bool limits_told_ = false;
    bool body_ended_ = false;
    bool replied_whole_ = false;
    bool ended_ = false;
};

/// An update_stream over provider_update_source<Mapping>: the request is sent when it is first read.
template <class Mapping>
update_stream stream_updates(std::shared_ptr<provider_transport> transport, provider_request request,
                             run_context context, Mapping mapping) {
    const auto executor = transport->executor();
    return update_stream(executor, std::make_unique<provider_update_source<Mapping>>(
                                       std::move(transport), std::move(request), std::move(context),
                                       std::move(mapping)));
}

} // namespace forma
