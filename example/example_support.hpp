#pragma once
// What forma's examples share, so that each of them shows only its own point: a model to
// talk to, and a bounded way to run a coroutine. Not part of forma's API.
//
// With OPENAI_API_KEY or OPENAI_BASE_URL set, the examples talk to the OpenAI-compatible
// service at OPENAI_BASE_URL (default https://api.openai.com/v1) with OPENAI_MODEL (default
// gpt-4o-mini), sending the key when there is one (a local server such as Ollama needs none).
// Without either they start forma::testing::model_server in this process, over TLS on
// loopback, whose answers are generated from the requested JSON Schema (strings and numbers
// taken from the prompt) or, for text, echo the prompt: every example runs offline.

#include "json_printing.hpp"

#include <forma/model/agent_response.hpp>
#include <forma/openai.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

namespace example {

/// The value of environment variable `name`, or `fallback` when it is unset or empty.
inline std::string environment(const char* name, std::string fallback = {}) {
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : std::move(fallback);
}

/// Whether the environment names a real model service: OPENAI_API_KEY or OPENAI_BASE_URL set.
inline bool real_service_configured() {
    return !environment("OPENAI_API_KEY").empty() || !environment("OPENAI_BASE_URL").empty();
}

/** The model the examples talk to: a chat client for the real service, or for a local
    model server started here (the constructor says which, in one line).
*/
class model {
public:
    /// `local_options` configure the local server, when one is started.
    explicit model(boost::asio::io_context& io, forma::testing::model_server_options local_options = {})
        : local_server_(start_local_server(io, std::move(local_options))),
          client_(io.get_executor(), client_options()) {
        if (local_server_)
            std::cout << "No OPENAI_API_KEY or OPENAI_BASE_URL set: using forma's local model server at "
                      << local_server_->base_url()
                      << " (answers generated from the schema, not a real model)\n";
        else
            std::cout << "Using " << client_.options().model << " at " << client_.options().base_url << '\n';
    }

    forma::openai::chat_client& client() noexcept { return client_; }
    bool is_local() const noexcept { return local_server_ != nullptr; }
    /// The local model server (its record of requests, its scripted replies); null for a real service.
    forma::testing::model_server* local_server() noexcept { return local_server_.get(); }

    /// How to reach the model: for another client of the same service (a responses_client).
    forma::openai::client_options client_options() const {
        if (!local_server_)
            return {.base_url = environment("OPENAI_BASE_URL", "https://api.openai.com/v1"),
                    .api_key = environment("OPENAI_API_KEY"),
                    .model = environment("OPENAI_MODEL", "gpt-4o-mini")};
        // The local server makes its certificate at start: trust it too (the system store stays on).
        return {.base_url = local_server_->base_url(),
                .model = "forma-local",
                .trust = {.ca_certificates = local_server_->certificate_pem()}};
    }

private:
    static std::unique_ptr<forma::testing::model_server>
    start_local_server(boost::asio::io_context& io, forma::testing::model_server_options options) {
        if (real_service_configured()) return nullptr;
        return std::make_unique<forma::testing::model_server>(io.get_executor(), std::move(options));
    }

    std::unique_ptr<forma::testing::model_server> local_server_; // null for the real service
    forma::openai::chat_client client_;
};

// What the run did besides answering: the calls the model made and what came back.
inline void show_tool_activity(const forma::agent_response<>& response) {
    for (const forma::chat_message& message : response.messages)
        for (const forma::content& c : message.contents) {
            if (const auto* call = std::get_if<forma::function_call_content>(&c))
                std::cout << "  call   " << call->name << ' ' << boost::json::serialize(call->arguments) << '\n';
            else if (const auto* result = std::get_if<forma::function_result_content>(&c))
                std::cout << "  result " << (result->error ? "error: " + *result->error : boost::json::serialize(result->result))
                          << '\n';
        }
}

/** Runs `task` on `io` until it ends and rethrows its error; throws std::runtime_error
    when it has not ended within `limit`, so that an example never hangs.

    The io_context is stopped once the task ends: a local model server keeps listening,
    so `io.run()` alone would not return.
*/
inline void run(boost::asio::io_context& io, boost::asio::awaitable<void> task,
                std::chrono::seconds limit = std::chrono::seconds(60)) {
    bool done = false;
    std::exception_ptr failure;
    boost::asio::co_spawn(io, std::move(task), [&](std::exception_ptr error) {
        done = true;
        failure = error;
        io.stop();
    });
    io.run_for(limit);
    if (failure) std::rethrow_exception(failure);
    if (!done) throw std::runtime_error("no answer within " + std::to_string(limit.count()) + " s");
}

} // namespace example
