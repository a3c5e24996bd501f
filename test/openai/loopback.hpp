#pragma once
// A chat client and the local model server on one io_context, over real TLS on loopback.

#include <forma/openai/chat_client.hpp>
#include <forma/testing/model_server.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

namespace loopback {

namespace asio = boost::asio;

/// Options that reach `s` and trust its certificate, with short waits.
inline forma::openai::client_options client_options_for(const forma::testing::model_server& s) {
    forma::openai::client_options o;
    o.base_url = s.base_url();
    o.api_key = "sk-test-secret-key-0123456789";
    o.model = "forma-local";
    o.trust.ca_certificates = s.certificate_pem();
    o.retry.initial_backoff = std::chrono::milliseconds(5);
    o.retry.max_backoff = std::chrono::milliseconds(20);
    o.timeouts.idle = std::chrono::seconds(10);
    return o;
}

class fixture : public ::testing::Test {
protected:
    /// Starts the server (once per test); later calls return it.
    forma::testing::model_server& server(forma::testing::model_server_options options = {}) {
        if (!server_) server_ = std::make_unique<forma::testing::model_server>(io.get_executor(), std::move(options));
        return *server_;
    }

    /// The JSON bodies of the requests the server received, in order.
    std::vector<boost::json::object> bodies() {
        std::vector<boost::json::object> out;
        for (const auto& r : server().requests()) out.push_back(boost::json::parse(r.body).as_object());
        return out;
    }

    /// Options that reach the server and trust its certificate, with short waits.
    forma::openai::client_options options_for(forma::testing::model_server& s) { return client_options_for(s); }

    /** Runs `operation` to its end on the io_context and returns its result (or throws its
        error). Fails the test, rather than hang, after `limit`.
    */
    template <class T>
    T run(asio::awaitable<T> operation, std::chrono::seconds limit = std::chrono::seconds(20)) {
        return forma_test::run_bounded(io, std::move(operation), limit);
    }

    /// Runs the io_context until `condition` holds or `limit` passes; returns the condition.
    template <class Condition>
    bool run_until(Condition condition, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
        const auto end = std::chrono::steady_clock::now() + limit;
        io.restart();
        while (!condition() && std::chrono::steady_clock::now() < end) io.run_for(std::chrono::milliseconds(5));
        return condition();
    }

    asio::io_context io;
    std::unique_ptr<forma::testing::model_server> server_;
};

/// All updates of a stream, read to its end.
inline asio::awaitable<std::vector<forma::agent_response_update>> drain(forma::update_stream stream) {
    std::vector<forma::agent_response_update> updates;
    while (auto update = co_await stream.next()) updates.push_back(std::move(*update));
    co_return updates;
}

/// The roles of a response's messages and the kinds of their contents, in one line.
inline std::string outline(const forma::agent_response<>& r) {
    std::string out;
    for (const auto& m : r.messages) {
        out += m.role.value() + "[";
        for (const auto& c : m.contents) out += std::string(forma::content_type(c)) + ",";
        out += "] ";
    }
    return out;
}

inline std::vector<forma::chat_message> ask(std::string text) {
    return {forma::chat_message(forma::chat_role::user(), std::move(text))};
}

} // namespace loopback
