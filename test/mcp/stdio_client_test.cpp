// mcp::client over stdio against the official MCP reference server, and against stand-in
// servers that misbehave (shell scripts).
#include <forma/chat/tool_error.hpp>
#include <forma/mcp.hpp>

#include "client_runner.hpp"
#include "everything_server.hpp"
#include "support/bounded_run.hpp"
#include "support/scratch_directory.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <filesystem>


using namespace std::chrono_literals;
namespace asio = boost::asio;
namespace json = boost::json;
using forma::mcp::client;
using forma::mcp::mcp_error;

namespace {

// Runs `body(c)` with a client of the stdio server `server`.
template <class T>
T run_with(forma::mcp::stdio_server server, std::function<asio::awaitable<T>(client&)> body,
           forma::mcp::client_options options = {}) {
    asio::io_context io;
    return mcp_test::run_client<T>(
        io, [&](asio::any_io_executor ex) { return forma::mcp::make_stdio_transport(ex, server); }, std::move(body),
        std::move(options));
}

using mcp_test::thrown_by;

// What starting `server` throws as an mcp_error (the client's connect() starts it).
std::string start_error(const forma::mcp::stdio_server& server) {
    try {
        (void)run_with<bool>(server, [](client&) -> asio::awaitable<bool> { co_return true; });
    } catch (const mcp_error& e) {
        return e.what();
    }
    return "(no mcp_error thrown)";
}

// A file in `scratch` with the permissions `permissions`.
std::filesystem::path file_in(const forma_test::scratch_directory& scratch, const std::string& name,
                              const std::string& text, std::filesystem::perms permissions) {
    const std::filesystem::path file = scratch.file(name, text);
    std::filesystem::permissions(file, permissions);
    return file;
}

constexpr auto executable = std::filesystem::perms::owner_all;
constexpr auto not_executable = std::filesystem::perms::owner_read | std::filesystem::perms::owner_write;

} // namespace

TEST(mcp_stdio, the_handshake_names_the_server_and_agrees_on_a_protocol_version) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    const auto info = run_with<forma::mcp::server_info>(mcp_test::everything_server(), [](client& c) -> asio::awaitable<forma::mcp::server_info> {
        co_return c.server();
    });
    EXPECT_FALSE(info.name.empty());
    EXPECT_EQ(info.protocol_version, forma::mcp::latest_protocol_version);
    EXPECT_TRUE(info.capabilities.contains("tools"));
}

TEST(mcp_stdio, lists_the_reference_servers_tools_with_their_schemas) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    const auto tools = run_with<std::vector<forma::mcp::tool_info>>(
        mcp_test::everything_server(), [](client& c) { return c.list_tools(); });
    const auto echo = std::find_if(tools.begin(), tools.end(), [](const auto& t) { return t.name == "echo"; });
    ASSERT_NE(echo, tools.end());
    EXPECT_FALSE(echo->description.empty());
    ASSERT_TRUE(echo->input_schema.contains("properties"));
    EXPECT_TRUE(echo->input_schema.at("properties").as_object().contains("message"));
    EXPECT_GT(tools.size(), 5u);
    // The async_ form, with a completion token (here use_awaitable), gives the same list.
    const auto listed_again = run_with<std::vector<forma::mcp::tool_info>>(
        mcp_test::everything_server(), [](client& c) { return c.async_list_tools(asio::use_awaitable); });
    EXPECT_EQ(listed_again.size(), tools.size());
}

TEST(mcp_stdio, calls_return_text_images_and_tool_errors) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    struct results {
        forma::mcp::call_result echo, image, unknown;
    };
    const auto r = run_with<results>(mcp_test::everything_server(), [](client& c) -> asio::awaitable<results> {
        results out;
        // (Arguments built before co_await: GCC 12 miscompiles braced temporaries in its operand.)
        const json::object echo_arguments{{"message", "hello forma"}};
        out.echo = co_await c.call_tool("echo", echo_arguments);
        out.image = co_await c.call_tool("get-tiny-image", json::object());
        out.unknown = co_await c.call_tool("no-such-tool", json::object());
        co_return out;
    });
    EXPECT_FALSE(r.echo.is_error);
    EXPECT_EQ(r.echo.text(), "Echo: hello forma");

    const forma::data_content* png = nullptr;
    for (const auto& c : r.image.contents) {
        if (const auto* d = std::get_if<forma::data_content>(&c)) png = d;
    }
    ASSERT_NE(png, nullptr);
    EXPECT_EQ(png->media_type, "image/png");
    ASSERT_GE(png->data.size(), 8u);
    EXPECT_EQ(static_cast<unsigned char>(png->data[1]), 'P'); // \x89PNG
    EXPECT_EQ(static_cast<unsigned char>(png->data[2]), 'N');

    EXPECT_TRUE(r.unknown.is_error);
    EXPECT_NE(r.unknown.text().find("no-such-tool"), std::string::npos);
}

TEST(mcp_stdio, progress_notifications_reach_the_caller_during_a_call) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    std::vector<forma::mcp::progress> seen;
    forma::mcp::client_options options;
    options.on_progress = [&](const forma::mcp::progress& p) { seen.push_back(p); };
    const auto result = run_with<forma::mcp::call_result>(
        mcp_test::everything_server(),
        [](client& c) { return c.call_tool("trigger-long-running-operation", json::object{{"duration", 1}, {"steps", 3}}); },
        options);
    EXPECT_FALSE(result.is_error);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].tool, "trigger-long-running-operation");
    EXPECT_EQ(seen[2].value, 3);
    EXPECT_EQ(seen[2].total, 3);
}

TEST(mcp_stdio, a_call_past_its_timeout_fails_and_the_client_goes_on) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    forma::mcp::client_options options;
    options.request_timeout = 1500ms; // room for the ping and echo after it on a loaded machine
    const std::string message = run_with<std::string>(
        mcp_test::everything_server(),
        [](client& c) -> asio::awaitable<std::string> {
            std::string what;
            const json::object long_run{{"duration", 10}, {"steps", 10}};
            try {
                (void)co_await c.call_tool("trigger-long-running-operation", long_run);
            } catch (const mcp_error& e) {
                what = e.what();
            }
            co_await c.ping(); // still usable: the late answer is expected and dropped
            const json::object echo_arguments{{"message", "after"}};
            const auto echo = co_await c.call_tool("echo", echo_arguments);
            co_return what + "|" + echo.text();
        },
        options);
    EXPECT_NE(message.find("did not answer tools/call within 1500 ms"), std::string::npos) << message;
    EXPECT_NE(message.find("MCP stdio server"), std::string::npos) << message;
    EXPECT_NE(message.find("|Echo: after"), std::string::npos) << message;
}

TEST(mcp_stdio, a_cancelled_call_ends_at_once_and_the_client_goes_on) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    const auto elapsed = run_with<std::chrono::steady_clock::duration>(
        mcp_test::everything_server(), [](client& c) -> asio::awaitable<std::chrono::steady_clock::duration> {
            auto executor = co_await asio::this_coro::executor;
            asio::cancellation_signal cancel;
            asio::steady_timer soon(executor, 200ms);
            soon.async_wait([&](boost::system::error_code) { cancel.emit(asio::cancellation_type::terminal); });
            const auto start = std::chrono::steady_clock::now();
            bool aborted = false;
            const json::object long_run{{"duration", 10}, {"steps", 10}};
            try {
                (void)co_await asio::co_spawn(executor, c.call_tool("trigger-long-running-operation", long_run),
                                              asio::bind_cancellation_slot(cancel.slot(), asio::use_awaitable));
            } catch (const boost::system::system_error& e) {
                aborted = e.code() == asio::error::operation_aborted;
            }
            const auto elapsed = std::chrono::steady_clock::now() - start;
            if (!aborted) throw std::runtime_error("the call was not aborted");
            co_await c.ping();
            co_return elapsed;
        });
    EXPECT_LT(elapsed, 5s);
}

TEST(mcp_stdio, remote_tools_are_function_tools_that_check_their_arguments_first) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    struct outcome {
        json::value echoed;
        std::string refused;
        std::string failed;
    };
    const auto r = run_with<outcome>(mcp_test::everything_server(), [](client& c) -> asio::awaitable<outcome> {
        const std::vector<forma::function_tool> tools = co_await forma::mcp::tools(c);
        auto tool = [&](std::string_view name) {
            return *std::find_if(tools.begin(), tools.end(), [&](const auto& t) { return t.name() == name; });
        };
        outcome out;
        const forma::function_tool echo = tool("echo");
        const forma::function_call_content call("call-1", "echo", json::object());
        const forma::tool_invocation good{call, R"({"message":"hi"})"};
        out.echoed = co_await echo.invoke(good);
        const forma::tool_invocation missing{call, R"({"text":"hi"})"}; // the schema requires "message"
        try {
            (void)co_await echo.invoke(missing);
        } catch (const forma::tool_arguments_error& e) {
            out.refused = e.what();
        }
        const forma::tool_invocation wrong_type{call, R"({"a":"one","b":2})"};
        try {
            (void)co_await tool("get-sum").invoke(wrong_type);
        } catch (const forma::tool_arguments_error& e) {
            out.failed = e.what();
        }
        co_return out;
    });
    EXPECT_EQ(r.echoed, json::value("Echo: hi"));
    EXPECT_NE(r.refused.find("message"), std::string::npos) << r.refused;
    EXPECT_NE(r.failed.find("/a"), std::string::npos) << r.failed;
}

TEST(mcp_stdio, no_child_process_is_left_after_close) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    const int before = forma_test::child_processes();
    (void)run_with<bool>(mcp_test::everything_server(), [](client& c) -> asio::awaitable<bool> {
        co_await c.ping();
        co_return true;
    });
    EXPECT_EQ(forma_test::child_processes(), before);
}

TEST(mcp_stdio, a_client_destroyed_without_close_still_ends_its_server) {
    MCP_REQUIRE_EVERYTHING_SERVER();
    const int before = forma_test::child_processes();
    asio::io_context io;
    {
        client c(io.get_executor(), forma::mcp::make_stdio_transport(io.get_executor(), mcp_test::everything_server()));
        forma_test::run_bounded(io, [&]() -> asio::awaitable<bool> {
            co_await c.connect();
            co_return true;
        }(), 30s);
        EXPECT_EQ(forma_test::child_processes(), before + 1);
    } // the destructor starts close() on the executor
    io.restart();
    for (int i = 0; i < 100 && forma_test::child_processes() != before; ++i) io.run_for(100ms);
    EXPECT_EQ(forma_test::child_processes(), before);
}

// Stand-in servers: what a broken server does, each a typed error naming the server.

TEST(mcp_stdio_faults, a_server_that_exits_at_once_is_an_error_with_its_stderr) {
    const std::string what = thrown_by([] {
        (void)run_with<bool>(mcp_test::shell_server("echo 'cannot open the database' >&2; exit 3"),
                             [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    // Whether the handshake's write or the read sees the exit first is a race; either way
    // the error names the server once and carries what it said.
    const std::string server = "MCP stdio server \"/bin/sh -c";
    const auto named = what.find(server);
    ASSERT_NE(named, std::string::npos) << what;
    EXPECT_EQ(what.find(server, named + 1), std::string::npos) << what;
    EXPECT_TRUE(what.find("closed") != std::string::npos || what.find("stopped reading its input") != std::string::npos)
        << what;
    EXPECT_NE(what.find("cannot open the database"), std::string::npos) << what;
}

TEST(mcp_stdio_faults, a_program_not_on_path_is_an_error) {
    const std::string what = thrown_by([] {
        (void)run_with<bool>({.command = "forma-no-such-mcp-server"}, [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    EXPECT_NE(what.find("\"forma-no-such-mcp-server\" is not on PATH"), std::string::npos) << what;
}

TEST(mcp_stdio_faults, a_path_that_is_no_program_is_an_error_naming_it_before_anything_is_started) {
    const forma_test::scratch_directory scratch{"forma-mcp"};
    const std::string missing = (scratch.path() / "no-such-server").string();
    const std::string text = file_in(scratch, "server.sh", "#!/bin/sh\n", not_executable).string();
    const int before = forma_test::child_processes();

    std::string what = start_error({.command = missing});
    EXPECT_NE(what.find("the program \"" + missing + "\" does not exist"), std::string::npos) << what;
    try {
        (void)run_with<bool>({.command = missing}, [](client&) -> asio::awaitable<bool> { co_return true; });
        ADD_FAILURE() << "a missing program started";
    } catch (const forma::rpc_error& e) { // mcp_error's base, as a2a_error's: one handler for both
        EXPECT_NE(e.peer().find(missing), std::string::npos) << e.peer();
        EXPECT_FALSE(e.code()) << "no JSON-RPC error: the server never started";
    }
    what = start_error({.command = scratch.path().string()});
    EXPECT_NE(what.find("the program \"" + scratch.path().string() + "\" is a directory"), std::string::npos) << what;
    what = start_error({.command = text});
    EXPECT_NE(what.find("the program \"" + text + "\" is not executable"), std::string::npos) << what;
    what = start_error({.command = "./no-such-server", .working_directory = scratch.path().string()});
    EXPECT_NE(what.find("the program \"./no-such-server\" (" + missing + ") does not exist"), std::string::npos)
        << what;
    what = start_error({.command = "/bin/sh", .working_directory = missing});
    EXPECT_NE(what.find("the working directory \"" + missing + "\" does not exist"), std::string::npos) << what;
    EXPECT_EQ(forma_test::child_processes(), before) << "a failed start left a child process, running or zombie";
}

TEST(mcp_stdio_faults, a_program_the_system_cannot_run_is_an_error_and_its_child_is_reaped) {
    const forma_test::scratch_directory scratch{"forma-mcp"};
    // Executable, but neither a binary nor a script with a #! line: the child's exec fails.
    const std::string program = file_in(scratch, "server", "not a program\n", executable).string();
    const int before = forma_test::child_processes();
    const std::string what = start_error({.command = program});
    EXPECT_NE(what.find("could not be started: Exec format error"), std::string::npos) << what;
    EXPECT_EQ(forma_test::child_processes(), before) << "the child whose exec failed was not reaped";
}

TEST(mcp_stdio_faults, a_relative_path_is_found_from_the_working_directory) {
    const forma_test::scratch_directory scratch{"forma-mcp"};
    (void)file_in(scratch, "server.sh", "#!/bin/sh\necho 'started from the working directory' >&2\n", executable);
    const std::string what = start_error({.command = "./server.sh", .working_directory = scratch.path().string()});
    EXPECT_NE(what.find("started from the working directory"), std::string::npos) << what;
}

TEST(mcp_stdio_faults, output_that_is_not_json_rpc_is_an_error) {
    const std::string what = thrown_by([] {
        (void)run_with<bool>(mcp_test::shell_server("read line; echo 'Server listening on stdout'; exec sleep 5"),
                             [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    EXPECT_NE(what.find("not a JSON-RPC object: \"Server listening on stdout\""), std::string::npos) << what;
}

TEST(mcp_stdio_faults, an_answer_to_a_request_never_sent_is_an_error) {
    const std::string what = thrown_by([] {
        (void)run_with<bool>(
            mcp_test::shell_server(R"(read line; echo '{"jsonrpc":"2.0","id":99,"result":{}}'; exec sleep 5)"),
            [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    EXPECT_NE(what.find("answered a request it was never sent (id 99)"), std::string::npos) << what;
}

TEST(mcp_stdio_faults, an_unknown_protocol_version_is_an_error) {
    const std::string what = thrown_by([] {
        (void)run_with<bool>(
            mcp_test::shell_server(
                R"(read line; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"1999-01-01","capabilities":{}}}'; exec sleep 5)"),
            [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    EXPECT_NE(what.find("speaks MCP protocol version \"1999-01-01\""), std::string::npos) << what;
}

TEST(mcp_stdio_faults, a_tool_whose_input_schema_is_not_an_object_schema_is_an_error) {
    // Answers initialize, reads the initialized notification, then lists one tool taking a string.
    const auto server = mcp_test::shell_server(
        R"(read line; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18",)"
        R"("capabilities":{"tools":{}},"serverInfo":{"name":"stand-in","version":"1"}}}'; read line; read line; )"
        R"(echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"shout","inputSchema":{"type":"string"}}]}}'; )"
        R"(exec sleep 5)");
    const std::string what = thrown_by([&] {
        (void)run_with<bool>(server, [](client& c) -> asio::awaitable<bool> {
            const std::vector<forma::function_tool> tools = co_await forma::mcp::tools(c);
            co_return tools.empty();
        });
    });
    EXPECT_EQ(what.find("MCP stdio server \"/bin/sh -c"), 0u) << what;
    EXPECT_NE(what.find("the parameters schema of the tool \"shout\" must be an object schema"), std::string::npos)
        << what;
}

TEST(mcp_stdio_faults, a_server_that_never_answers_times_out_and_is_stopped) {
    forma::mcp::client_options options;
    options.connect_timeout = 300ms;
    const int before = forma_test::child_processes();
    // Ignores SIGTERM and its input's end: close() must still end it.
    const std::string what = thrown_by([&] {
        (void)run_with<bool>(mcp_test::shell_server("trap '' TERM; exec tail -f /dev/null"),
                             [](client&) -> asio::awaitable<bool> { co_return true; }, options);
    });
    EXPECT_NE(what.find("did not answer initialize within 300 ms"), std::string::npos) << what;
    EXPECT_EQ(forma_test::child_processes(), before);
}

TEST(mcp_stdio_faults, a_message_past_the_size_limit_is_an_error) {
    auto server = mcp_test::shell_server("read line; head -c 100000 /dev/zero | tr '\\0' 'x'; exec sleep 5");
    server.max_message_size = 10000;
    const std::string what = thrown_by([&] {
        (void)run_with<bool>(server, [](client&) -> asio::awaitable<bool> { co_return true; });
    });
    EXPECT_NE(what.find("longer than the limit of 10000 bytes"), std::string::npos) << what;
}
