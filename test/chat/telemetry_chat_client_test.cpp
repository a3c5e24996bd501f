// telemetry_chat_client: a chat span per call with the provider of the client below, the span
// handed down as the run's trace, streams recorded to their end, failures as error spans, and
// requests without a trace passed through.
#include <forma/chat/chat_client_builder.hpp>
#include <forma/chat/telemetry_chat_client.hpp>
#include <forma/net/http_error.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
namespace attr = forma::telemetry::gen_ai::attr;
using forma::chat_message;
using forma::chat_role;

namespace {

/// A provider as telemetry sees it: the scripted model under a name, a server and a model.
class named_provider : public forma::delegating_chat_client {
public:
    using delegating_chat_client::delegating_chat_client;
    forma::provider_metadata provider() const override {
        return {.name = "example", .server_address = "models.example", .server_port = 8443, .default_model = "tiny"};
    }
};

std::optional<std::string> text_of(const forma::telemetry::span_data& span, std::string_view key) {
    if (const auto* s = std::get_if<std::string>(forma::telemetry::find(span.attributes, key))) return *s;
    return std::nullopt;
}

class telemetry_chat_client_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }
    static std::vector<chat_message> ask(std::string text) { return {chat_message(chat_role::user(), std::move(text))}; }
    forma::run_context traced() const {
        return {.trace = forma::telemetry::trace_parent{.exporter = memory, .context = caller}};
    }

    asio::io_context io;
    forma::testing::scripted_chat_client model{io.get_executor()};
    named_provider provider{model};
    std::shared_ptr<forma::chat_client> client = forma::chat_client_builder(provider).use_telemetry().build();
    std::shared_ptr<forma::telemetry::in_memory_exporter> memory =
        std::make_shared<forma::telemetry::in_memory_exporter>();
    forma::telemetry::span_context caller{.trace_id = {1, 2, 3}, .span_id = {4, 5, 6}};
};

TEST_F(telemetry_chat_client_test, a_call_is_a_chat_span_whose_context_the_client_below_gets_as_its_trace) {
    forma::agent_response<> answer(chat_message(chat_role::assistant(), "hi"));
    answer.usage = forma::usage_details{.input_token_count = 7, .output_token_count = 2};
    model.add_response(answer);
    EXPECT_EQ(run(client->get_response(ask("hello"), {.model = "large"}, traced())).text(), "hi");

    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 1u);
    const auto& chat = spans[0];
    EXPECT_EQ(chat.name, "chat large") << "the request's model before the provider's default";
    EXPECT_EQ(chat.context.trace_id, caller.trace_id);
    EXPECT_EQ(chat.parent_span_id, caller.span_id);
    EXPECT_EQ(text_of(chat, attr::provider_name), "example");
    EXPECT_EQ(text_of(chat, attr::server_address), "models.example");
    EXPECT_EQ(text_of(chat, attr::request_model), "large");
    ASSERT_EQ(model.requests().size(), 1u);
    const auto& below = model.requests()[0].context.trace;
    ASSERT_TRUE(below);
    EXPECT_EQ(below->context, chat.context) << "the provider sends the chat span as the traceparent";
}

TEST_F(telemetry_chat_client_test, a_stream_is_one_span_that_ends_with_it) {
    model.add_updates({forma::agent_response_update(chat_role::assistant(), "a"),
                       forma::agent_response_update(chat_role::assistant(), "b")});
    auto stream = client->get_streaming_response(ask("hello"), {}, traced());
    std::string text;
    run([&]() -> asio::awaitable<int> {
        while (auto update = co_await stream.next()) text += update->text();
        co_return 0;
    }());
    EXPECT_EQ(text, "ab");
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].name, "chat tiny") << "the provider's default model";
    EXPECT_TRUE(forma::telemetry::find(spans[0].attributes, attr::response_time_to_first_chunk));
    EXPECT_EQ(spans[0].status, forma::telemetry::status_code::unset);
}

TEST_F(telemetry_chat_client_test, a_failure_is_an_error_span_and_the_error_goes_on) {
    model.add_error(std::make_exception_ptr(forma::http_error(503, "server_error", "busy")));
    EXPECT_THROW(run(client->get_response(ask("hello"), {}, traced())), forma::http_error);
    model.add_updates({forma::agent_response_update(chat_role::assistant(), "a")},
                      std::make_exception_ptr(forma::http_error(0, "server_error", "cut")));
    auto stream = client->get_streaming_response(ask("hello"), {}, traced());
    EXPECT_THROW(run([&]() -> asio::awaitable<int> {
                     while (co_await stream.next()) {
                     }
                     co_return 0;
                 }()),
                 forma::http_error);
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    for (const auto& span : spans) EXPECT_EQ(span.status, forma::telemetry::status_code::error) << span.name;
    EXPECT_EQ(text_of(spans[0], attr::error_type), "503");
}

TEST_F(telemetry_chat_client_test, a_request_without_a_trace_passes_through_unrecorded) {
    model.add_text_response("plain");
    EXPECT_EQ(run(client->get_response(ask("hello"))).text(), "plain");
    EXPECT_TRUE(memory->spans().empty());
    ASSERT_EQ(model.requests().size(), 1u);
    EXPECT_FALSE(model.requests()[0].context.trace);
}

} // namespace
