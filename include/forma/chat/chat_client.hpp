#pragma once

#include <forma/chat/chat_options.hpp>
#include <forma/chat/chat_request.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/run_context.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/chat_message.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>

#include <vector>

namespace forma {

/** A language model behind a chat API: messages in, a response (or a stream of
    updates) out. forma::openai::chat_client implements it over HTTPS;
    forma::testing::scripted_chat_client replays scripted replies.

    A chat response is an agent_response<> without an agent id.
*/
class chat_client {
public:
    using executor_type = boost::asio::any_io_executor;

    virtual ~chat_client();

    /// The executor every operation of this client runs on.
    virtual executor_type get_executor() const = 0;

    /// Who serves the model, for telemetry; empty by default.
    virtual provider_metadata provider() const { return {}; }

    /** The first layer of this client's stack that is a T: this client, or one it
        delegates to, outermost first (as Microsoft.Extensions.AI's GetService); null when
        none is. `client.find<function_invoking_chat_client>()` says whether a stack has a
        tool loop, `find<openai::chat_client>()` reaches the provider under decorators.
    */
    template <class T>
    T* find() noexcept {
        for (chat_client* layer = this; layer; layer = layer->next_layer())
            if (auto* found = dynamic_cast<T*>(layer)) return found;
        return nullptr;
    }
    template <class T>
    const T* find() const noexcept {
        return const_cast<chat_client*>(this)->find<T>();
    }

    // Overloads, not default arguments: g++ 12 mis-compiles a defaulted aggregate argument
    // in a co_await expression (see the guide).

    /// Asks the model; `context` is the caller's run (its trace), if any.
    boost::asio::awaitable<agent_response<>> get_response(chat_request request) {
        return get_response_core(std::move(request));
    }
    boost::asio::awaitable<agent_response<>> get_response(std::vector<chat_message> messages, chat_options options,
                                                          run_context context) {
        return get_response_core({std::move(messages), std::move(options), std::move(context)});
    }
    boost::asio::awaitable<agent_response<>> get_response(std::vector<chat_message> messages, chat_options options) {
        return get_response_core({std::move(messages), std::move(options), run_context()});
    }
    boost::asio::awaitable<agent_response<>> get_response(std::vector<chat_message> messages) {
        return get_response_core({std::move(messages), chat_options(), run_context()});
    }

    /// Starts a streaming response; the request is made when the stream is first read.
    update_stream get_streaming_response(chat_request request) { return get_streaming_response_core(std::move(request)); }
    update_stream get_streaming_response(std::vector<chat_message> messages, chat_options options,
                                         run_context context) {
        return get_streaming_response_core({std::move(messages), std::move(options), std::move(context)});
    }
    update_stream get_streaming_response(std::vector<chat_message> messages, chat_options options) {
        return get_streaming_response_core({std::move(messages), std::move(options), run_context()});
    }
    update_stream get_streaming_response(std::vector<chat_message> messages) {
        return get_streaming_response_core({std::move(messages), chat_options(), run_context()});
    }

    /// get_response() for any completion token; the handler gets (std::exception_ptr, agent_response<>).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_get_response(std::vector<chat_message> messages, chat_options options, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), get_response(std::move(messages), std::move(options)),
                                     std::forward<CompletionToken>(token));
    }

protected:
    /// What get_response does: the one function a client implements for whole responses.
    virtual boost::asio::awaitable<agent_response<>> get_response_core(chat_request request) = 0;
    /// What get_streaming_response does.
    virtual update_stream get_streaming_response_core(chat_request request) = 0;
    /// The client this one delegates to, for find(); null for a client that delegates to none.
    virtual chat_client* next_layer() const noexcept { return nullptr; }

    friend class delegating_chat_client;
};

} // namespace forma
