// forma::mcp::client against forma::mcp::server (the conformance fixture) over Streamable HTTP:
// resources, prompts, completion and the log level read by the client; the server's sampling
// and elicitation requests answered by it, sampling with a chat_client.
#include "conformance_fixture.hpp"
#include "support/bounded_run.hpp"
#include "support/running_server.hpp"

#include <forma/mcp.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <gtest/gtest.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = forma::mcp;
using namespace std::chrono_literals;

class McpClientFeatures : public ::testing::Test {
protected:
    McpClientFeatures() { forma_test::conformance::serve(server); }

    // Runs `test` with a client of the fixture server made with `options`.
    void run(mcp::client_options options, std::function<asio::awaitable<void>(mcp::client&)> test) {
        forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
            forma_test::running_server http(io, server.routes());
            mcp::client client(io.get_executor(), mcp::make_http_transport(io.get_executor(), {.url = http.base_url() + "/mcp"}), std::move(options));
            co_await client.connect();
            co_await test(client);
            co_await client.close();
            co_await http.finish();
        }(), 30s);
    }

    static std::string first_text(const mcp::call_result& result) { return result.text(); }

    asio::io_context io;
    mcp::server server{io.get_executor(), {}, {.client_request_timeout = 1s}};
};

TEST_F(McpClientFeatures, ReadsResourcesAndTemplates) {
    run({}, [](mcp::client& client) -> asio::awaitable<void> {
        EXPECT_EQ(client.server().protocol_version, "2025-11-25");
        const auto resources = co_await client.list_resources();
        const auto templates = co_await client.list_resource_templates();
        const auto text = co_await client.read_resource("test://static-text");
        const auto binary = co_await client.read_resource("test://static-binary");
        const auto by_template = co_await client.read_resource("test://template/7/data");
        co_await client.subscribe("test://watched-resource");
        co_await client.unsubscribe("test://watched-resource");
        std::optional<std::int64_t> missing_code;
        try {
            (void)co_await client.read_resource("test://missing");
        } catch (const mcp::mcp_error& e) {
            missing_code = e.code();
        }
        EXPECT_EQ(resources.size(), 3u);
        EXPECT_EQ(resources.at(0).uri, "test://static-text");
        EXPECT_EQ(resources.at(0).mime_type, "text/plain");
        EXPECT_EQ(templates.size(), 1u);
        EXPECT_EQ(templates.at(0).uri_template, "test://template/{id}/data");
        EXPECT_EQ(text.size(), 1u);
        EXPECT_EQ(std::get<std::string>(text.at(0).data), "This is the content of the static text resource.");
        EXPECT_EQ(binary.size(), 1u);
        EXPECT_EQ(std::get<std::vector<std::byte>>(binary.at(0).data), forma_test::conformance::png().data) << "the blob's bytes, decoded";
        EXPECT_EQ(json::parse(std::get<std::string>(by_template.at(0).data)).at("id"), "7");
        EXPECT_EQ(missing_code, -32002);
    });
}

// The client's GET stream carries what the server sends outside any request.
TEST_F(McpClientFeatures, IsToldOfAnUpdatedResourceOverItsStream) {
    std::vector<std::string> updated;
    run({.on_resource_updated = [&](const std::string& uri) { updated.push_back(uri); }}, [&](mcp::client& client) -> asio::awaitable<void> {
        co_await client.subscribe("test://watched-resource");
        // The stream opens beside the requests: tell until it is heard.
        asio::steady_timer tick(io);
        for (int tries = 0; updated.empty() && tries < 1000; ++tries) {
            server.resource_updated("test://static-text"); // not subscribed: never told
            server.resource_updated("test://watched-resource");
            tick.expires_after(5ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        EXPECT_FALSE(updated.empty());
        for (const std::string& uri : updated) EXPECT_EQ(uri, "test://watched-resource");
    });
}

TEST_F(McpClientFeatures, GetsPromptsAndCompletions) {
    run({}, [](mcp::client& client) -> asio::awaitable<void> {
        const auto prompts = co_await client.list_prompts();
        const auto filled = co_await client.get_prompt("test_prompt_with_arguments", {{"arg1", "x"}, {"arg2", "y"}});
        const auto image = co_await client.get_prompt("test_prompt_with_image");
        const auto embedded = co_await client.get_prompt("test_prompt_with_embedded_resource", {{"resourceUri", "test://r"}});
        const auto values = co_await client.complete_prompt_argument("test_prompt_with_arguments", "arg1", "pa");
        const auto none = co_await client.complete_template_variable("test://template/{id}/data", "id", "");
        std::optional<std::int64_t> refused;
        try {
            (void)co_await client.get_prompt("test_prompt_with_arguments", {{"arg1", "x"}});
        } catch (const mcp::mcp_error& e) {
            refused = e.code();
        }
        EXPECT_EQ(prompts.size(), 4u);
        const auto with_arguments = std::find_if(prompts.begin(), prompts.end(), [](const mcp::prompt_info& p) { return p.name == "test_prompt_with_arguments"; });
        EXPECT_TRUE(with_arguments != prompts.end() && with_arguments->arguments.size() == 2 && with_arguments->arguments[0].required);
        EXPECT_EQ(filled.messages.size(), 1u);
        EXPECT_EQ(filled.messages.at(0).text(), "Prompt with arguments: arg1='x', arg2='y'");
        EXPECT_EQ(filled.messages.at(0).role, forma::chat_role::user());
                const auto* png = std::get_if<forma::data_content>(&image.messages.at(0).contents.at(0));
        EXPECT_TRUE(png && png->media_type == "image/png");
        EXPECT_EQ(embedded.messages.at(0).text(), "Embedded resource content for testing.");
        EXPECT_EQ(values, (std::vector<std::string>{"paris", "park", "party"}));
        EXPECT_TRUE(none.empty());
        EXPECT_EQ(refused, -32602);
    });
}

TEST_F(McpClientFeatures, ReceivesLogsFromTheLevelItSets) {
    std::vector<mcp::log_message> logs;
    run({.on_log = [&](const mcp::log_message& m) { logs.push_back(m); }}, [&](mcp::client& client) -> asio::awaitable<void> {
        co_await client.set_log_level(mcp::log_level::warning);
        (void)co_await client.call_tool("test_tool_with_logging", {});
        const std::size_t at_warning = logs.size();
        co_await client.set_log_level(mcp::log_level::debug);
        (void)co_await client.call_tool("test_tool_with_logging", {});
        EXPECT_EQ(at_warning, 0u) << "the tool logs at info";
        EXPECT_EQ(logs.size(), 3u);
        EXPECT_EQ(logs.at(0).level, "info");
        EXPECT_EQ(logs.at(0).logger, "conformance");
        EXPECT_EQ(logs.at(2).data, "Tool execution completed");
    });
}

TEST_F(McpClientFeatures, AnswersSamplingWithAChatClient) {
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    model->add_text_response("Hello from the client's model");
    run({.on_sampling = mcp::sample_with(model)}, [&](mcp::client& client) -> asio::awaitable<void> {
        const mcp::call_result result = co_await client.call_tool("test_sampling", {{"prompt", "Say hello"}});
        EXPECT_FALSE(result.is_error) << result.text();
        EXPECT_EQ(result.text(), "LLM response: Hello from the client's model");
        EXPECT_EQ(model->requests().size(), 1u);
        EXPECT_EQ(model->requests().at(0).messages.at(0).text(), "Say hello");
        EXPECT_EQ(model->requests().at(0).options.max_output_tokens, 100);
    });
}

TEST_F(McpClientFeatures, AnswersElicitationAndFillsDefaults) {
    std::vector<mcp::elicitation_request> asked;
    mcp::client_options options{.on_elicitation = [&](mcp::elicitation_request request) -> asio::awaitable<mcp::elicitation_result> {
        asked.push_back(request);
        co_return mcp::elicitation_result{.action = mcp::elicitation_result::kind::accept, .content = {{"age", 41}}};
    }};
    run(std::move(options), [&](mcp::client& client) -> asio::awaitable<void> {
        const mcp::call_result result = co_await client.call_tool("test_elicitation_sep1034_defaults", {});
        EXPECT_EQ(asked.size(), 1u);
        EXPECT_TRUE(asked.at(0).requested_schema.at("properties").as_object().contains("verified"));
        const std::string text = result.text();
        const json::value content = json::parse(text.substr(text.find("content=") + 8));
        EXPECT_EQ(content, json::parse(R"({"age":41,"name":"John Doe","score":95.5,"status":"active","verified":true})"))
            << "what the user gave, and the schema's defaults for the rest";
    });
}

// A question the server withdraws (here: not answered in time) cancels the client's handler.
TEST_F(McpClientFeatures, AWithdrawnQuestionCancelsItsHandler) {
    bool handler_canceled = false;
    mcp::client_options options{.on_elicitation = [&](mcp::elicitation_request) -> asio::awaitable<mcp::elicitation_result> {
        asio::steady_timer never(co_await asio::this_coro::executor, asio::steady_timer::time_point::max());
        try {
            co_await never.async_wait(asio::use_awaitable);
        } catch (const boost::system::system_error&) {
            handler_canceled = true;
            throw;
        }
        co_return mcp::elicitation_result{};
    }};
    run(std::move(options), [&](mcp::client& client) -> asio::awaitable<void> {
        const mcp::call_result result = co_await client.call_tool("test_elicitation", {});
        asio::steady_timer tick(io);
        for (int tries = 0; !handler_canceled && tries < 400; ++tries) { // the withdrawal travels beside the answer
            tick.expires_after(5ms);
            co_await tick.async_wait(asio::use_awaitable);
        }
        EXPECT_TRUE(result.is_error);
        EXPECT_NE(result.text().find("did not answer elicitation/create in time"), std::string::npos) << result.text();
        EXPECT_TRUE(handler_canceled);
    });
}

TEST_F(McpClientFeatures, AClientWithoutAHandlerIsNotAsked) {
    run({}, [](mcp::client& client) -> asio::awaitable<void> {
        const mcp::call_result sampled = co_await client.call_tool("test_sampling", {{"prompt", "x"}});
        const mcp::call_result elicited = co_await client.call_tool("test_elicitation", {});
        EXPECT_TRUE(sampled.is_error);
        EXPECT_NE(sampled.text().find("did not declare the sampling capability"), std::string::npos) << sampled.text();
        EXPECT_TRUE(elicited.is_error);
        EXPECT_NE(elicited.text().find("did not declare the elicitation capability"), std::string::npos) << elicited.text();
    });
}

// A server that asks more at once than the client answers at once gets the rest refused: the
// first question is held until the second has been refused.
TEST_F(McpClientFeatures, AServerAskingTooMuchAtOnceIsRefused) {
    asio::steady_timer release(io, asio::steady_timer::time_point::max());
    server.add(mcp::server_tool{.name = "ask_two", .invoke = [&release](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
                                    auto outcomes = std::make_shared<std::vector<std::string>>();
                                    auto ask = [&call]() -> asio::awaitable<std::string> {
                                        try {
                                            mcp::sampling_request request{.messages = {forma::chat_message(forma::chat_role::user(), "q")}};
                                            const mcp::sampling_result answer = co_await call.create_message(std::move(request));
                                            co_return answer.message.text();
                                        } catch (const mcp::mcp_error& e) {
                                            co_return std::string("refused: ") + e.what();
                                        }
                                    };
                                    const auto executor = co_await asio::this_coro::executor;
                                    for (int i = 0; i < 2; ++i) {
                                        asio::co_spawn(executor, ask(), [outcomes](std::exception_ptr, std::string o) { outcomes->push_back(std::move(o)); });
                                    }
                                    asio::steady_timer tick(executor);
                                    for (std::size_t wanted : {1u, 2u}) {
                                        while (outcomes->size() < wanted) {
                                            tick.expires_after(5ms);
                                            co_await tick.async_wait(asio::use_awaitable);
                                        }
                                        release.expires_at(asio::steady_timer::time_point::min()); // the refusal is in: let the first answer
                                    }
                                    co_return mcp::tool_result{.content = {forma::text_content(outcomes->at(0)), forma::text_content(outcomes->at(1))}};
                                }});
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    model->add_text_response("answered");
    auto held = [&release, sample = mcp::sample_with(model)](mcp::sampling_request request) -> asio::awaitable<mcp::sampling_result> {
        co_await release.async_wait(asio::as_tuple(asio::use_awaitable));
        co_return co_await sample(std::move(request));
    };
    run({.on_sampling = held, .max_server_requests = 1}, [&](mcp::client& client) -> asio::awaitable<void> {
        const mcp::call_result result = co_await client.call_tool("ask_two", {});
        EXPECT_EQ(result.contents.size(), 2u) << result.text();
        EXPECT_NE(std::get<forma::text_content>(result.contents.at(0)).text.find("answers 1 requests at once"), std::string::npos) << result.text();
        EXPECT_EQ(std::get<forma::text_content>(result.contents.at(1)).text, "answered");
    });
}

} // namespace
