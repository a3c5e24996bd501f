#pragma once
// What the tool loop tests share: tools, scripted turns, and running a coroutine to its end.

#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/testing/scripted_chat_client.hpp>
#include <forma/tools.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <gtest/gtest.h>

#include "support/bounded_run.hpp"
#include "support/without_raw.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tool_test {

namespace asio = boost::asio;
using namespace std::chrono_literals;

struct weather_query {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(weather_query, (), (city))

struct forecast {
    std::string city;
    double celsius = 0;
    bool operator==(const forecast&) const = default;
};
BOOST_DESCRIBE_STRUCT(forecast, (), (city, celsius))

inline boost::json::value json(std::string_view text) { return boost::json::parse(text); }

/// A call as a provider sends it: the arguments text kept as the raw representation.
inline forma::function_call_content call(std::string id, std::string name, std::string arguments) {
    forma::function_call_content c(id, name);
    boost::system::error_code ec;
    auto parsed = boost::json::parse(arguments, ec);
    if (!ec && parsed.is_object()) c.arguments = parsed.as_object();
    c.raw_representation = boost::json::object{
        {"id", id}, {"type", "function"}, {"function", boost::json::object{{"name", name}, {"arguments", arguments}}}};
    return c;
}

/// A model turn that calls tools.
inline forma::agent_response<> calls_turn(std::vector<forma::function_call_content> calls, std::string id = "turn-1") {
    forma::chat_message m(forma::chat_role::assistant(), std::vector<forma::content>(calls.begin(), calls.end()));
    m.message_id = id;
    forma::agent_response<> r(std::move(m));
    r.response_id = id;
    r.finish_reason = forma::finish_reason::tool_calls();
    r.usage = forma::usage_details{.input_token_count = 10, .output_token_count = 2};
    return r;
}

/// A model turn that answers.
inline forma::agent_response<> answer_turn(std::string text, std::string id = "turn-2") {
    forma::chat_message m(forma::chat_role::assistant(), std::move(text));
    m.message_id = id;
    forma::agent_response<> r(std::move(m));
    r.response_id = id;
    r.finish_reason = forma::finish_reason::stop();
    r.usage = forma::usage_details{.input_token_count = 20, .output_token_count = 5};
    return r;
}

/// Every result in the messages, in order.
inline std::vector<forma::function_result_content> results_in(const std::vector<forma::chat_message>& messages) {
    std::vector<forma::function_result_content> out;
    for (const auto& m : messages)
        for (const auto& c : m.contents)
            if (const auto* r = std::get_if<forma::function_result_content>(&c)) out.push_back(*r);
    return out;
}

/// The last result of a request sent to the model.
inline forma::function_result_content last_result(const std::vector<forma::chat_message>& sent) {
    const auto results = results_in(sent);
    if (results.empty()) throw std::logic_error("no tool message was sent");
    return results.back();
}

using forma_test::without_raw;

inline std::string json_text(const forma::agent_response<>& r) {
    return boost::json::serialize(boost::json::value_from(r));
}

class fixture : public ::testing::Test {
protected:
    /// Runs `operation` to its end; fails the test rather than hang.
    template <class T>
    T run(asio::awaitable<T> operation, std::chrono::seconds limit = std::chrono::seconds(20)) {
        return forma_test::run_bounded(io, std::move(operation), limit);
    }

    /// Every update of a stream, read to its end.
    static asio::awaitable<std::vector<forma::agent_response_update>> drain(forma::update_stream stream) {
        std::vector<forma::agent_response_update> updates;
        while (auto update = co_await stream.next()) updates.push_back(std::move(*update));
        co_return updates;
    }

    asio::io_context io;
    forma::testing::scripted_chat_client model{io.get_executor()};
};

} // namespace tool_test
