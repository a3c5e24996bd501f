#pragma once

#include <forma/chat/chat_client.hpp>

#include <deque>
#include <exception>
#include <memory>
#include <variant>
#include <vector>

namespace forma::testing {

/** A chat_client that answers from a script, for tests and benchmarks: each call
    takes the next scripted reply (a response, a list of updates, or an error) and
    records the request it was given.

    A response asked for as a stream is streamed as its to_updates(); updates asked
    for whole are merged with to_agent_response. Streams yield to the executor
    between updates, like a network stream would.
*/
class scripted_chat_client : public chat_client {
public:
    struct request {
        std::vector<chat_message> messages;
        chat_options options;
        run_context context;
        bool streaming = false;
    };

    explicit scripted_chat_client(executor_type executor);

    executor_type get_executor() const override { return executor_; }

    void add_response(agent_response<> response);
    /// A response with one assistant message holding `text`.
    void add_text_response(std::string text);
    /// Updates to stream; `error` (if any) is thrown after the last one.
    void add_updates(std::vector<agent_response_update> updates, std::exception_ptr error = nullptr);
    /// The next call throws `error`.
    void add_error(std::exception_ptr error);

    const std::vector<request>& requests() const noexcept { return requests_; }
    /// Forgets the recorded requests (a benchmark's loop would otherwise keep them all).
    void clear_requests() noexcept { requests_.clear(); }
    std::size_t replies_left() const noexcept { return replies_.size(); }
    /// Streams handed out and not yet destroyed (0 once every stream is released).
    long live_streams() const noexcept { return *live_streams_; }
    /// Updates that streams have yielded so far, over all streams.
    std::size_t updates_yielded() const noexcept { return *updates_yielded_; }

protected:
    boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) override;
    update_stream get_streaming_response_core(chat_request request) override;

private:
    struct scripted_updates {
        std::vector<agent_response_update> updates;
        std::exception_ptr error;
    };
    using reply = std::variant<agent_response<>, scripted_updates, std::exception_ptr>;

    reply take_reply(chat_request& request, bool streaming);

    executor_type executor_;
    std::deque<reply> replies_;
    std::vector<request> requests_;
    std::size_t calls_ = 0;
    std::shared_ptr<long> live_streams_ = std::make_shared<long>(0);
    std::shared_ptr<std::size_t> updates_yielded_ = std::make_shared<std::size_t>(0);
};

} // namespace forma::testing
