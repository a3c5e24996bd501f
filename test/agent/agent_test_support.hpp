#pragma once

#include <forma/agent/agent.hpp>
#include <forma/chat/delegating_chat_client.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/describe.hpp>

#include <optional>
#include <string>
#include <vector>

namespace agent_test {

/// Runs `operation` on `io` until it completes and returns its result (or throws its error).
template <class T>
T run_to_completion(boost::asio::io_context& io, boost::asio::awaitable<T> operation) {
    auto future = boost::asio::co_spawn(io, std::move(operation), boost::asio::use_future);
    io.restart();
    io.run();
    return future.get();
}

/// All updates of a stream, read to its end.
inline boost::asio::awaitable<std::vector<forma::agent_response_update>> drain(forma::update_stream stream) {
    std::vector<forma::agent_response_update> updates;
    while (auto update = co_await stream.next()) updates.push_back(std::move(*update));
    co_return updates;
}

inline forma::agent_response_update text_update(std::string text, std::string message_id = {}) {
    forma::agent_response_update u(forma::chat_role::assistant(), std::move(text));
    u.message_id = std::move(message_id);
    return u;
}

enum class mood { happy, sad };
BOOST_DESCRIBE_ENUM(mood, happy, sad)

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
    bool operator==(const person&) const = default;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

/// A provider whose server takes standard JSON Schema (no strict subset) through the answer tool only.
class tool_only_provider : public forma::delegating_chat_client {
public:
    using delegating_chat_client::delegating_chat_client;
    forma::provider_metadata provider() const override {
        return {.name = "tool-only",
                .structured_output_modes = {forma::structured_output_mode::tool},
                .schema_dialect = forma::schema_dialect::json_schema_2020_12};
    }
};

} // namespace agent_test
