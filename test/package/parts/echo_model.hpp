// A chat client of the consumer's own: it answers "echo: <the last message's text>", whole or
// streamed. What a user writes to put a model of theirs behind forma's agents.
#pragma once

#include <forma/chat/chat_client.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <string>
#include <utility>
#include <vector>

class echo_model final : public forma::chat_client {
public:
    explicit echo_model(boost::asio::any_io_executor executor) : executor_(std::move(executor)) {}
    executor_type get_executor() const override { return executor_; }

protected:
    boost::asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        co_return forma::agent_response<>(forma::chat_message(forma::chat_role::assistant(), answer(request)));
    }
    forma::update_stream get_streaming_response_core(forma::chat_request request) override {
        std::vector<forma::agent_response_update> updates(1);
        updates[0].role = forma::chat_role::assistant();
        updates[0].contents.emplace_back(forma::text_content(answer(request)));
        return forma::make_update_stream(executor_, std::move(updates));
    }

private:
    static std::string answer(const forma::chat_request& request) {
        return "echo: " + (request.messages.empty() ? std::string() : request.messages.back().text());
    }
    boost::asio::any_io_executor executor_;
};
