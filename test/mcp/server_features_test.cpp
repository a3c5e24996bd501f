// forma::mcp::server's resources, prompts, completion, logging, content blocks and the requests it
// sends its client (sampling, elicitation), driven line by line over stdio pipes as a client
// would: every answer, refusal and notification read as it is written.
#include "conformance_fixture.hpp"

#include <forma/mcp/make_prompt.hpp>
#include "support/bounded_run.hpp"

#include <forma/error.hpp>

#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <unistd.h>

#include <gtest/gtest.h>

struct review_arguments {
    std::string code;
    std::optional<std::string> language;
};
BOOST_DESCRIBE_STRUCT(review_arguments, (), (code, language))

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace mcp = forma::mcp;
using namespace std::chrono_literals;

// A client on the other end of serve_stdio's two pipes.
class pipe_client {
public:
    explicit pipe_client(asio::io_context& io, mcp::server& server) : to_server_(io), from_server_(io) {
        int in[2], out[2];
        if (::pipe(in) != 0 || ::pipe(out) != 0) throw std::runtime_error("pipe failed");
        to_server_.assign(in[1]);
        from_server_.assign(out[0]);
        asio::co_spawn(io, serve(server, in[0], out[1]), asio::detached);
    }

    asio::awaitable<void> send(std::string_view message) {
        const std::string line = std::string(message) + "\n";
        co_await asio::async_write(to_server_, asio::buffer(line), asio::use_awaitable);
    }
    /// The next message the server writes.
    asio::awaitable<json::object> next() {
        const std::size_t n = co_await asio::async_read_until(from_server_, asio::dynamic_buffer(buffer_), '\n', asio::use_awaitable);
        const std::string line = buffer_.substr(0, n - 1);
        buffer_.erase(0, n);
        co_return json::parse(line).as_object();
    }
    asio::awaitable<json::object> request(std::int64_t id, std::string_view method, json::object params = {}) {
        co_await send(json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}));
        co_return co_await next();
    }
    asio::awaitable<void> initialize(json::object capabilities = {}) {
        const json::object answer = co_await request(0, "initialize",
                                                     {{"protocolVersion", "2025-11-25"}, {"capabilities", std::move(capabilities)},
                                                      {"clientInfo", {{"name", "pipes"}, {"version", "1"}}}});
        EXPECT_EQ(answer.at("result").at("protocolVersion"), "2025-11-25") << json::serialize(answer);
    }
    void close() { to_server_.close(); }

private:
    static asio::awaitable<void> serve(mcp::server& server, int input, int output) {
        co_await server.serve_stdio(input, output);
        ::close(input);
        ::close(output);
    }

    asio::posix::stream_descriptor to_server_, from_server_;
    std::string buffer_;
};

std::int64_t error_code(const json::object& answer) { return answer.at("error").at("code").as_int64(); }

class McpServerFeatures : public ::testing::Test {
protected:
    McpServerFeatures() { forma_test::conformance::serve(server); }
    void run(std::function<asio::awaitable<void>(pipe_client&)> test) {
        forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
            pipe_client client(io, server);
            co_await test(client);
            client.close();
        }(), 30s);
    }
    asio::io_context io;
    mcp::server server{io.get_executor(), {}, {.client_request_timeout = 2s}};
};

TEST_F(McpServerFeatures, ReadsResourcesAndTemplatesAndTellsSubscribers) {
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        const json::object listed = co_await c.request(1, "resources/list");
        const json::object templates = co_await c.request(2, "resources/templates/list");
        const json::object text = co_await c.request(3, "resources/read", {{"uri", "test://static-text"}});
        const json::object binary = co_await c.request(4, "resources/read", {{"uri", "test://static-binary"}});
        const json::object by_template = co_await c.request(5, "resources/read", {{"uri", "test://template/42/data"}});
        const json::object past_template = co_await c.request(6, "resources/read", {{"uri", "test://template/4/2/data"}});
        const json::object no_uri = co_await c.request(7, "resources/read");
        EXPECT_EQ(listed.at("result").at("resources").as_array().size(), 3u) << json::serialize(listed);
        EXPECT_EQ(templates.at("result").at("resourceTemplates").at(0).at("uriTemplate"), "test://template/{id}/data");
        EXPECT_EQ(text.at("result").at("contents"),
                  json::parse(R"([{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}])"));
        EXPECT_EQ(binary.at("result").at("contents").at(0).at("blob"), forma_test::conformance::png_base64);
        EXPECT_EQ(json::parse(by_template.at("result").at("contents").at(0).at("text").as_string()),
                  json::parse(R"({"id":"42","templateTest":true,"data":"Data for ID: 42"})"));
        EXPECT_EQ(error_code(past_template), -32002) << "a variable never takes a '/'";
        EXPECT_EQ(error_code(no_uri), -32602);

        // Subscribed: told of an update. Unsubscribed: not (the ping's answer comes next).
        EXPECT_TRUE((co_await c.request(8, "resources/subscribe", {{"uri", "test://watched-resource"}})).contains("result"));
        server.resource_updated("test://watched-resource");
        server.resource_updated("test://static-text"); // not subscribed
        const json::object updated = co_await c.next();
        EXPECT_EQ(updated.at("method"), "notifications/resources/updated");
        EXPECT_EQ(updated.at("params").at("uri"), "test://watched-resource");
        EXPECT_EQ(error_code(co_await c.request(9, "resources/subscribe", {{"uri", "test://nothing"}})), -32002) << "nothing is served there";
        EXPECT_TRUE((co_await c.request(10, "resources/unsubscribe", {{"uri", "test://watched-resource"}})).contains("result"));
        server.resource_updated("test://watched-resource");
        EXPECT_EQ((co_await c.request(11, "ping")).at("id"), 11);
    });
}

// A template's variables match a URI without backtracking: a client's long URI against a
// template of several variables is answered at once (a backtracking match would take hours); a
// variable ends where the text after it first comes, the last text at the URI's end.
TEST_F(McpServerFeatures, MatchesUriTemplatesWithoutBacktracking) {
    const auto joined = [](const std::string& uri, const mcp::template_variables& v) -> asio::awaitable<std::vector<mcp::resource_contents>> {
        std::string values;
        for (const auto& [name, value] : v) values += name + "=" + value + ";";
        co_return std::vector<mcp::resource_contents>{{.uri = uri, .data = values}};
    };
    server.add(mcp::resource_template{.uri_template = "test://{a}-{b}-{c}", .name = "three parts", .read = joined});
    server.add(mcp::resource_template{.uri_template = "logs://{day}.txt", .name = "a day's log", .read = joined});
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        const json::object parts = co_await c.request(1, "resources/read", {{"uri", "test://x-y-z-w"}});
        const json::object day = co_await c.request(2, "resources/read", {{"uri", "logs://2024.01.txt"}});
        const json::object dashes = co_await c.request(3, "resources/read", {{"uri", "test://" + std::string(200'000, '-') + "/"}});
        EXPECT_EQ(parts.at("result").at("contents").at(0).at("text"), "a=x;b=y;c=z-w;");
        EXPECT_EQ(day.at("result").at("contents").at(0).at("text"), "day=2024.01;");
        EXPECT_EQ(error_code(dashes), -32002) << "no variable takes a '/'";
    });
}

TEST_F(McpServerFeatures, FillsPromptsAndCompletesTheirArguments) {
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        const json::object listed = co_await c.request(1, "prompts/list");
        const json::object filled = co_await c.request(2, "prompts/get", {{"name", "test_prompt_with_arguments"}, {"arguments", {{"arg1", "a"}, {"arg2", "b"}}}});
        const json::object missing = co_await c.request(3, "prompts/get", {{"name", "test_prompt_with_arguments"}, {"arguments", {{"arg1", "a"}}}});
        const json::object unknown_argument =
            co_await c.request(4, "prompts/get", {{"name", "test_simple_prompt"}, {"arguments", {{"extra", "x"}}}});
        const json::object not_a_string =
            co_await c.request(5, "prompts/get", {{"name", "test_prompt_with_arguments"}, {"arguments", {{"arg1", 1}, {"arg2", "b"}}}});
        const json::object image = co_await c.request(6, "prompts/get", {{"name", "test_prompt_with_image"}});
        const json::object completed = co_await c.request(
            7, "completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "test_prompt_with_arguments"}}}, {"argument", {{"name", "arg1"}, {"value", "par"}}}});
        const json::object nothing_to_complete = co_await c.request(
            8, "completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "test://template/{id}/data"}}}, {"argument", {{"name", "id"}, {"value", "1"}}}});
        const json::object unknown_ref = co_await c.request(
            9, "completion/complete", {{"ref", {{"type", "ref/prompt"}, {"name", "nope"}}}, {"argument", {{"name", "x"}, {"value", ""}}}});
        EXPECT_EQ(listed.at("result").at("prompts").as_array().size(), 4u);
        EXPECT_EQ(filled.at("result").at("messages"),
                  json::parse(R"([{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='a', arg2='b'"}}])"));
        EXPECT_EQ(error_code(missing), -32602);
        EXPECT_NE(json::serialize(missing).find("arg2"), std::string::npos) << "names the argument: " << json::serialize(missing);
        EXPECT_EQ(error_code(unknown_argument), -32602);
        EXPECT_EQ(error_code(not_a_string), -32602);
        EXPECT_EQ(image.at("result").at("messages").at(0).at("content"),
                  (json::object{{"type", "image"}, {"data", forma_test::conformance::png_base64}, {"mimeType", "image/png"}}));
        EXPECT_EQ(completed.at("result").at("completion"), json::parse(R"({"values":["paris","park","party"],"total":3,"hasMore":false})"));
        EXPECT_EQ(nothing_to_complete.at("result").at("completion").at("values"), json::array());
        EXPECT_EQ(error_code(unknown_ref), -32602);
    });
}

TEST_F(McpServerFeatures, MakesAPromptOfADescribedStruct) {
    server.add(mcp::make_prompt<review_arguments>("code_review", "Reviews code", [](const review_arguments& a) {
        return std::vector<mcp::prompt_message>{{.content = forma::text_content("Review this " + a.language.value_or("code") + ": " + a.code)}};
    }));
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        const json::object listed = co_await c.request(1, "prompts/list");
        const json::object both = co_await c.request(2, "prompts/get", {{"name", "code_review"}, {"arguments", {{"code", "x++"}, {"language", "C++"}}}});
        const json::object one = co_await c.request(3, "prompts/get", {{"name", "code_review"}, {"arguments", {{"code", "y"}}}});
        const json::object none = co_await c.request(4, "prompts/get", {{"name", "code_review"}});
        json::value review;
        for (const json::value& p : listed.at("result").at("prompts").as_array()) {
            if (p.at("name") == "code_review") review = p;
        }
        EXPECT_EQ(review.at("arguments"), json::parse(R"([{"name":"code","required":true},{"name":"language","required":false}])")) << json::serialize(review);
        EXPECT_EQ(both.at("result").at("messages").at(0).at("content").at("text"), "Review this C++: x++");
        EXPECT_EQ(one.at("result").at("messages").at(0).at("content").at("text"), "Review this code: y");
        EXPECT_EQ(error_code(none), -32602);
    });
}

TEST_F(McpServerFeatures, WritesEveryKindOfContent) {
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        const json::object mixed = co_await c.request(1, "tools/call", {{"name", "test_multiple_content_types"}});
        const json::object audio = co_await c.request(2, "tools/call", {{"name", "test_audio_content"}});
        const json::object failed = co_await c.request(3, "tools/call", {{"name", "test_error_handling"}});
        EXPECT_EQ(mixed.at("result").at("content"),
                  json::parse(R"([{"type":"text","text":"Multiple content types test:"},)"
                              R"({"type":"image","data":")" + std::string(forma_test::conformance::png_base64) + R"(","mimeType":"image/png"},)"
                              R"({"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}])"));
        EXPECT_EQ(audio.at("result").at("content").at(0).at("type"), "audio");
        EXPECT_EQ(failed.at("result").at("isError"), true);
        EXPECT_EQ(failed.at("result").at("content").at(0).at("text"), "the tool failed: This tool intentionally returns an error for testing");
    });
}

TEST_F(McpServerFeatures, LogsFromTheLevelTheClientSet) {
    server.add(mcp::server_tool{.name = "log_each_level", .invoke = [](mcp::call_context& call) -> asio::awaitable<mcp::tool_result> {
                                    call.log(mcp::log_level::info, "routine");
                                    call.log(mcp::log_level::warning, {{"disk", "low"}}, "storage");
                                    call.log(mcp::log_level::emergency, "down");
                                    co_return mcp::tool_result{};
                                }});
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize();
        EXPECT_EQ(error_code(co_await c.request(1, "logging/setLevel", {{"level", "loud"}})), -32602);
        EXPECT_EQ((co_await c.request(2, "logging/setLevel", {{"level", "warning"}})).at("result"), json::object());
        co_await c.send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"log_each_level"}})");
        const json::object first = co_await c.next();
        const json::object second = co_await c.next();
        const json::object answer = co_await c.next();
        EXPECT_EQ(first.at("params"), json::parse(R"({"level":"warning","data":{"disk":"low"},"logger":"storage"})")) << "info is below the level";
        EXPECT_EQ(second.at("params").at("level"), "emergency");
        EXPECT_EQ(answer.at("id"), 3);
    });
}

TEST_F(McpServerFeatures, AsksTheClientsModelAndUser) {
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize({{"sampling", json::object()}, {"elicitation", json::object()}});
        co_await c.send(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"Say hi"}}})");
        const json::object asked = co_await c.next();
        EXPECT_EQ(asked.at("method"), "sampling/createMessage");
        EXPECT_EQ(asked.at("params"), json::parse(R"({"messages":[{"role":"user","content":{"type":"text","text":"Say hi"}}],"maxTokens":100})"));
        // An answer to a request never sent is dropped; the one asked for is taken.
        co_await c.send(R"({"jsonrpc":"2.0","id":999,"result":{"role":"assistant","content":{"type":"text","text":"forged"},"model":"m"}})");
        co_await c.send(json::serialize(json::object{
            {"jsonrpc", "2.0"}, {"id", asked.at("id")},
            {"result", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}, {"model", "test-model"}, {"stopReason", "endTurn"}}}}));
        const json::object sampled = co_await c.next();
        EXPECT_EQ(sampled.at("result").at("content").at(0).at("text"), "LLM response: hi") << json::serialize(sampled);

        co_await c.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_elicitation","arguments":{"message":"Who are you?"}}})");
        const json::object elicited = co_await c.next();
        EXPECT_EQ(elicited.at("method"), "elicitation/create");
        EXPECT_EQ(elicited.at("params").at("message"), "Who are you?");
        EXPECT_EQ(elicited.at("params").at("requestedSchema").at("required"), json::parse(R"(["username","email"])"));
        co_await c.send(json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", elicited.at("id")}, {"error", {{"code", -1}, {"message", "no user here"}}}}));
        const json::object refused = co_await c.next();
        EXPECT_EQ(refused.at("result").at("isError"), true);
        EXPECT_NE(refused.at("result").at("content").at(0).at("text").as_string().find("no user here"), std::string::npos) << json::serialize(refused);
    });
}

TEST_F(McpServerFeatures, AClientThatCannotOrDoesNotAnswerFailsTheCallAlone) {
    run([&](pipe_client& c) -> asio::awaitable<void> {
        co_await c.initialize({{"sampling", json::object()}}); // no elicitation
        const json::object undeclared = co_await c.request(1, "tools/call", {{"name", "test_elicitation"}});
        EXPECT_EQ(undeclared.at("result").at("isError"), true);
        EXPECT_NE(undeclared.at("result").at("content").at(0).at("text").as_string().find("did not declare the elicitation capability"),
                  std::string::npos) << json::serialize(undeclared);

        // Asked and never answered: the call fails after client_request_timeout.
        co_await c.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"x"}}})");
        EXPECT_EQ((co_await c.next()).at("method"), "sampling/createMessage");
        EXPECT_EQ((co_await c.next()).at("method"), "notifications/cancelled") << "the question is withdrawn when it times out";
        const json::object timed_out = co_await c.next();
        EXPECT_EQ(timed_out.at("id"), 2);
        EXPECT_NE(timed_out.at("result").at("content").at(0).at("text").as_string().find("did not answer sampling/createMessage in time"),
                  std::string::npos) << json::serialize(timed_out);

        // Canceled while it waits: the client is told the question is withdrawn, the call gets
        // no answer.
        co_await c.send(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"y"}}})");
        const json::object asked = co_await c.next();
        co_await c.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})");
        const json::object withdrawn = co_await c.next();
        EXPECT_EQ(withdrawn.at("method"), "notifications/cancelled");
        EXPECT_EQ(withdrawn.at("params").at("requestId"), asked.at("id"));
        EXPECT_EQ((co_await c.request(4, "ping")).at("id"), 4) << "the canceled call wrote nothing";
    });
}

TEST(McpServerCatalog, RefusesTwoOfOneNameAndMissingParts) {
    asio::io_context io;
    mcp::server server(io.get_executor(), {});
    forma_test::conformance::serve(server);
    EXPECT_THROW(server.add(forma_test::conformance::content_tool("test_simple_text", "again", {})), forma::error);
    EXPECT_THROW(server.add(mcp::resource{.uri = "test://static-text", .name = "again", .read = []() -> asio::awaitable<std::vector<mcp::resource_contents>> { co_return std::vector<mcp::resource_contents>{}; }}),
                 forma::error);
    EXPECT_THROW(server.add(mcp::prompt{.name = "no_get"}), forma::error);
    EXPECT_THROW(server.add(mcp::server_tool{.name = "no_invoke"}), forma::error);
}

} // namespace
