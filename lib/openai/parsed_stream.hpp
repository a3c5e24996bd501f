#pragma once
// The update_source both OpenAI clients stream with: it opens the request on the first
// next(), feeds the body to a mapping as it arrives, and records the call's span.
//
// A Mapping has:
//   std::optional<agent_response_update> next(std::string_view& bytes);  // as the stream parsers
//   void finish();                                                         // the body has ended
//   std::vector<agent_response_update> whole(std::string_view body);     // a server that ignored "stream"

#include "transport.hpp"
#include "../net/media_type.hpp"

#include <forma/chat/update_stream.hpp>

#include <boost/asio/awaitable.hpp>

#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace forma::openai::detail {

template <class Mapping>
class parsed_stream final : public update_source {
public:
    parsed_stream(std::shared_ptr<transport> owner, request_line request, std::string body,
                  telemetry::operation_span span, Mapping mapping)
        : body_(std::move(owner)), request_(std::move(request)), request_body_(std::move(body)),
          span_(std::move(span)), mapping_(std::move(mapping)) {}

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
                    if (!limits_told_) { // the first update carries what the headers said
                        limits_told_ = true;
                        attach_rate_limits(update->additional_properties, rate_limits_of(body_.head()));
                    }
                    span_.add_update(*update);
                    co_return update;
                }
                if (body_ended_) {
                    if (!replied_whole_) mapping_.finish();
                    ended_ = true;
                    span_.end();
                    co_return std::nullopt;
                }
                pending_ = co_await body_.read_some();
                body_ended_ = pending_.empty();
            }
        } catch (...) {
            fail();
            span_.fail(std::current_exception());
            throw;
        }
    }

private:
    boost::asio::awaitable<void> start() {
        started_ = true;
        request_.body = request_body_;
        co_await body_.open(request_, span_);
        request_body_.clear();
        request_body_.shrink_to_fit();
        // A server that ignores "stream" answers with one JSON body: hand it out as updates.
        if (net::detail::has_media_type(body_.head().header("content-type"), net::detail::json_media_type)) {
            replied_whole_ = true;
            const std::string text = co_await body_.read_rest();
            whole_ = mapping_.whole(text);
            body_ended_ = true;
        }
    }

    void fail() noexcept {
        ended_ = true;
        body_.close();
    }

    streamed_body body_;
    request_line request_;
    std::string request_body_;
    telemetry::operation_span span_;
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

} // namespace forma::openai::detail
