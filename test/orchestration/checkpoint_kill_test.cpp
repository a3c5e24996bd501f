// Checkpoints on a real redis-server: a process running an orchestration is killed (SIGKILL)
// in the middle of a step, and another process goes on from the checkpoint taken before it; a
// redis-server stopped mid-run fails the next checkpoint, and the session goes on from there.
#include "openai/loopback.hpp"
#include "support/bounded_run.hpp"
#include "support/redis_server.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/orchestration.hpp>
#include <forma/redis/client.hpp>
#include <forma/redis/session_store.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/io_context.hpp>

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using forma::testing::scripted_reply;
namespace asio = boost::asio;

/// A process's orchestration: writer, reviewer and editor over one model server, checkpointed in Redis.
struct desk {
    desk(asio::io_context& io, forma::testing::model_server& server, const forma::redis::client_options& redis) {
        client = std::make_shared<forma::openai::chat_client>(io.get_executor(), loopback::client_options_for(server));
        std::vector<std::shared_ptr<forma::agent>> team;
        for (const char* name : {"writer", "reviewer", "editor"})
            team.push_back(std::make_shared<forma::chat_client_agent>(
                *client, forma::chat_client_agent_options{.name = name, .instructions = std::string("agent:") + name}));
        store = std::make_shared<forma::redis::session_store>(
            std::make_shared<forma::redis::client>(io.get_executor(), redis));
        line.emplace(std::move(team), forma::sequential_options{.orchestration = {.checkpoints = store}});
    }
    std::shared_ptr<forma::openai::chat_client> client;
    std::shared_ptr<forma::redis::session_store> store;
    std::optional<forma::sequential_orchestration> line;
};

/// The agent a request is from, by its instructions.
std::string agent_of(const forma::testing::received_request& request) {
    const auto body = boost::json::parse(request.body).as_object();
    const std::string system(body.at("messages").as_array().at(0).at("content").as_string());
    return system.substr(system.find(':') + 1);
}

constexpr const char* port_variable = "FORMA_CHECKPOINT_REDIS_PORT";

// The first process's part, in a child that re-executes this binary (a fork alone is not safe:
// the redis-server helper runs a thread). The writer answers; the reviewer's request kills the
// process, as a crash or a deploy would, after the checkpoint of its step was saved.
TEST(orchestration_checkpoints, DISABLED_first_process) {
    const char* port = std::getenv(port_variable);
    if (!port) GTEST_SKIP() << "run by a_process_killed_mid_step_loses_only_that_step";
    asio::io_context io;
    forma::testing::model_server server(io.get_executor());
    server.set_handler([](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
        if (agent_of(r) == "reviewer") ::raise(SIGKILL);
        return scripted_reply::completion("Draft one.");
    });
    forma::redis::client_options redis;
    redis.host = "127.0.0.1";
    redis.port = static_cast<unsigned short>(std::stoi(port));
    desk first(io, server, redis);
    try {
        forma_test::run_bounded(io, first.line->run("Write a note", forma::session_id("s-kill")), std::chrono::seconds(20));
    } catch (...) {
    }
    ::_exit(3); // not killed: the parent reports it
}

TEST(orchestration_checkpoints, a_process_killed_mid_step_loses_only_that_step) {
    forma_test::redis_server redis;
    // Built before fork: the child only calls what is safe between fork and exec.
    std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::string filter = "--gtest_filter=orchestration_checkpoints.DISABLED_first_process";
    std::string disabled = "--gtest_also_run_disabled_tests";
    std::string port = std::string(port_variable) + "=" + std::to_string(redis.port());
    std::vector<char*> argv{self.data(), filter.data(), disabled.data(), nullptr};
    std::vector<char*> environment{port.data()};
    for (char** variable = environ; *variable; ++variable) environment.push_back(*variable);
    environment.push_back(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::execve(self.c_str(), argv.data(), environment.data());
        ::_exit(127);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the first process should die in the reviewer's step; it exited with " << WEXITSTATUS(status);

    // The second process: other objects, another model server; the same Redis.
    asio::io_context io;
    forma::testing::model_server server(io.get_executor());
    std::vector<std::string> asked;
    server.set_handler([&](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
        asked.push_back(agent_of(r));
        return scripted_reply::completion(asked.back() == "reviewer" ? "Looks good." : "Final.");
    });
    desk second(io, server, redis.client_options());
    const std::optional<forma::agent_session> saved =
        forma_test::run_bounded(io, second.store->load(forma::session_id("s-kill")), std::chrono::seconds(20));
    ASSERT_TRUE(saved);
    const forma::orchestration_state state = second.line->state_of(*saved);
    EXPECT_EQ(state.status, forma::orchestration_status::running);
    EXPECT_EQ(state.speakers, (std::vector<std::string>{"reviewer"}));
    ASSERT_EQ(saved->history.size(), 2u) << "the question and the writer's answer were saved";
    EXPECT_EQ(saved->history[1].text(), "Draft one.");

    const forma::agent_response<> r = forma_test::run_bounded(
        io, second.line->run(forma::agent_input(std::vector<forma::chat_message>{}), forma::session_id("s-kill")),
        std::chrono::seconds(20));
    EXPECT_EQ(asked, (std::vector<std::string>{"reviewer", "editor"})) << "the writer is not asked again";
    EXPECT_EQ(r.text(), "Final.");
    EXPECT_EQ(r.messages.front().text(), "Looks good.");
    const std::optional<forma::agent_session> after =
        forma_test::run_bounded(io, second.store->load(forma::session_id("s-kill")), std::chrono::seconds(20));
    ASSERT_TRUE(after);
    EXPECT_EQ(after->history.size(), 4u);
    EXPECT_EQ(second.line->state_of(*after).status, forma::orchestration_status::idle);
}

// The store stops answering during the reviewer's step: the checkpoint before the editor's step
// fails, the run ends with an orchestration_error holding both answers, and a run on the session
// in hand (the store back) asks the editor only. Whole and streamed.
TEST(orchestration_checkpoints, a_store_that_fails_mid_run_ends_it_and_the_session_goes_on_from_there) {
    forma_test::redis_server redis({.persistent = true}); // what was saved before the stop is there after it
    for (const bool streamed : {false, true}) {
        SCOPED_TRACE(streamed ? "streamed" : "whole");
        asio::io_context io;
        forma::testing::model_server server(io.get_executor());
        std::vector<std::string> asked;
        server.set_handler([&](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
            asked.push_back(agent_of(r));
            if (asked.back() == "reviewer") redis.stop();
            const boost::json::value body = boost::json::parse(r.body);
            const boost::json::value* stream_asked = body.as_object().if_contains("stream");
            const bool stream = stream_asked && stream_asked->as_bool();
            const std::string text = asked.back() == "writer" ? "Draft one." : asked.back() == "reviewer" ? "Looks good." : "Final.";
            return stream ? scripted_reply::stream(text) : scripted_reply::completion(text);
        });
        desk team(io, server, redis.client_options());
        auto session = std::make_shared<forma::agent_session>(forma::session_id(streamed ? "s-stop-streamed" : "s-stop-whole"));
        std::optional<forma::orchestration_error> failed;
        forma::agent_response_builder merged;
        try {
            if (streamed) {
                forma::update_stream stream = team.line->run_streaming("Write a note", session);
                forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
                    while (auto update = co_await stream.next()) merged.add(std::move(*update));
                }(), std::chrono::seconds(30));
            } else {
                forma_test::run_bounded(io, team.line->run("Write a note", session), std::chrono::seconds(30));
            }
        } catch (const forma::orchestration_error& e) {
            failed.emplace(e);
        }
        ASSERT_TRUE(failed) << "the checkpoint before the editor's step cannot be saved";
        EXPECT_EQ(failed->participant(), "");
        EXPECT_EQ(failed->step(), 3u);
        EXPECT_TRUE(failed->cause());
        const forma::agent_response<> partial = failed->partial_response();
        ASSERT_EQ(partial.messages.size(), 2u);
        EXPECT_EQ(partial.messages[1].author_name, "reviewer");
        EXPECT_EQ(partial.text(), "Looks good.");
        if (streamed) EXPECT_EQ(merged.take().messages.size(), 2u);
        EXPECT_EQ(team.line->state_of(*session).speakers, (std::vector<std::string>{"editor"}));

        redis.start();
        const forma::agent_response<> r = forma_test::run_bounded(
            io, team.line->run(forma::agent_input(std::vector<forma::chat_message>{}), session), std::chrono::seconds(30));
        EXPECT_EQ(r.text(), "Final.");
        EXPECT_EQ(asked, (std::vector<std::string>{"writer", "reviewer", "editor"})) << "nothing finished is asked again";
        const std::optional<forma::agent_session> saved =
            forma_test::run_bounded(io, team.store->load(session->id), std::chrono::seconds(30));
        ASSERT_TRUE(saved);
        EXPECT_EQ(saved->history.size(), 4u) << "the question and three answers, saved once the store is back";
        EXPECT_EQ(team.line->state_of(*saved).status, forma::orchestration_status::idle);
    }
}

} // namespace
