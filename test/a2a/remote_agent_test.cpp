// forma::a2a::agent against a test agent built on the official A2A SDK (@a2a-js/sdk): messages,
// tasks waited for, streamed, polled, resumed and canceled, input-required, contexts, faults.
#include <forma/a2a.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/awaits_input.hpp>

#include "support/bounded_run.hpp"
#include "a2a_test_agent.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <gtest/gtest.h>

#include <filesystem>

namespace asio = boost::asio;
using forma::a2a::a2a_error;

namespace {

struct person {
    std::string name;
    int age = 0;
    std::string occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

// Each test speaks the version the client picks (1.0, which the SDK's agent offers) and 0.3.
class remote_agent : public ::testing::TestWithParam<std::optional<forma::a2a::protocol_version>> {
protected:
    void SetUp() override {
        A2A_REQUIRE_TEST_AGENT();
        start_test_agent(server);
        remote = std::make_unique<forma::a2a::agent>(io.get_executor(), options());
    }

    virtual forma::a2a::agent_options options() {
        return {.base_url = server->url(), .poll_interval = std::chrono::milliseconds(50), .speak = GetParam()};
    }

    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(60));
    }

    forma::agent_response<> ask(std::string text, std::shared_ptr<forma::agent_session> session = nullptr,
                                forma::agent_run_options run_options = {}) {
        return run(remote->run(std::move(text), std::move(session), std::move(run_options)));
    }

    // The streamed run's updates, merged.
    forma::agent_response<> ask_streaming(std::string text, std::shared_ptr<forma::agent_session> session = nullptr,
                                          forma::agent_run_options run_options = {}, std::size_t* count = nullptr) {
        auto stream = remote->run_streaming(std::move(text), std::move(session), std::move(run_options));
        return run([&]() -> asio::awaitable<forma::agent_response<>> {
            forma::agent_response_builder merged;
            std::size_t seen = 0;
            while (auto update = co_await stream.next()) {
                merged.add(std::move(*update));
                ++seen;
            }
            if (count) *count = seen;
            co_return merged.take();
        }());
    }

    static std::string state_of(const forma::agent_response<>& r) {
        const auto* state = r.additional_properties.if_contains("a2a.task_state");
        return state && state->is_string() ? std::string(state->get_string()) : std::string();
    }

    asio::io_context io;
    std::optional<forma_test::node_server> server;
    std::unique_ptr<forma::a2a::agent> remote;
};

std::string thrown_by(const std::function<void()>& f) {
    try {
        f();
    } catch (const a2a_error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("not an a2a_error: ") + e.what();
    }
    return "(nothing thrown)";
}

} // namespace

std::string remote_agent_version_name(const ::testing::TestParamInfo<std::optional<forma::a2a::protocol_version>>& info) {
    return info.param ? "A2a0_3" : "Newest";
}

INSTANTIATE_TEST_SUITE_P(Versions, remote_agent, ::testing::Values(std::nullopt, forma::a2a::protocol_version::v0_3), remote_agent_version_name);

TEST_P(remote_agent, reads_the_agent_card) {
    EXPECT_EQ(remote->name(), server->url());
    run([&]() -> asio::awaitable<bool> {
        co_await remote->connect();
        co_return true;
    }());
    EXPECT_EQ(remote->card().name, "forma test agent");
    EXPECT_EQ(remote->name(), "forma test agent");
    EXPECT_TRUE(remote->card().streaming);
    EXPECT_NE(remote->card().url.find("/a2a/jsonrpc"), std::string::npos) << remote->card().url;
    EXPECT_EQ(remote->card().spoken_version, GetParam().value_or(forma::a2a::protocol_version::v1_0));
}

TEST_P(remote_agent, a_message_answer_is_the_text_and_names_the_agent) {
    const auto r = ask("hello there");
    EXPECT_EQ(r.text(), "Hello! You said: hello there");
    ASSERT_EQ(r.messages.size(), 1u);
    EXPECT_EQ(r.messages[0].role, forma::chat_role::assistant());
    EXPECT_EQ(r.messages[0].author_name, "forma test agent");
    EXPECT_FALSE(r.messages[0].message_id.empty());
    EXPECT_FALSE(r.continuation_token);
    EXPECT_TRUE(r.additional_properties.contains("a2a.context_id"));
}

TEST_P(remote_agent, run_T_reads_a_data_part_and_json_text) {
    const auto from_data = run(remote->run<person>("person"));
    EXPECT_EQ(from_data.result().name, "Ada Lovelace");
    EXPECT_EQ(from_data.result().age, 36);
    const auto from_text = run(remote->run<person>("person as text"));
    EXPECT_EQ(from_text.result().occupation, "mathematician");
}

TEST_P(remote_agent, a_task_is_waited_for_and_its_artifacts_are_the_answer) {
    const auto r = ask("report");
    EXPECT_EQ(r.text(), "The report: part one, part two.");
    EXPECT_EQ(state_of(r), "completed");
    EXPECT_FALSE(r.continuation_token);
    EXPECT_FALSE(r.response_id.empty());
}

TEST_P(remote_agent, streamed_and_whole_runs_give_equal_answers) {
    for (const std::string ask_for : {"report", "file", "hello"}) {
        const auto whole = ask(ask_for);
        std::size_t updates = 0;
        const auto streamed = ask_streaming(ask_for, nullptr, {}, &updates);
        ASSERT_EQ(whole.messages.size(), streamed.messages.size()) << ask_for;
        for (std::size_t i = 0; i < whole.messages.size(); ++i) {
            forma::chat_message a = whole.messages[i], b = streamed.messages[i];
            a.message_id = b.message_id = ""; // a new message id in each run
            EXPECT_EQ(a, b) << ask_for;
        }
        EXPECT_EQ(state_of(whole), state_of(streamed)) << ask_for;
        EXPECT_EQ(whole.continuation_token, streamed.continuation_token) << ask_for;
        if (ask_for == "report") {
            EXPECT_GE(updates, 5u) << "task, working, three chunks, completed";
        }
    }
}

TEST_P(remote_agent, files_and_data_of_an_artifact_become_contents) {
    const auto r = ask("file");
    ASSERT_EQ(r.messages.size(), 1u);
    const auto& contents = r.messages[0].contents;
    ASSERT_EQ(contents.size(), 2u);
    const auto* file = std::get_if<forma::data_content>(&contents[0]);
    ASSERT_NE(file, nullptr);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(file->data.data()), file->data.size()), "hello file");
    EXPECT_EQ(file->media_type, "text/plain");
    EXPECT_EQ(file->name, "hello.txt");
    EXPECT_EQ(r.text(), R"({"lines":1})");
}

TEST_P(remote_agent, a_background_task_comes_back_with_a_token_that_polls_and_resumes_it) {
    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto started = ask("slow 400", nullptr, background);
    ASSERT_TRUE(started.continuation_token);
    EXPECT_TRUE(state_of(started) == "submitted" || state_of(started) == "working") << state_of(started);
    EXPECT_EQ(started.text(), "");

    forma::agent_run_options poll;
    poll.continuation_token = started.continuation_token;
    const auto finished = ask("", nullptr, poll);
    EXPECT_EQ(finished.text(), "finished after 400 ms");
    EXPECT_EQ(finished.response_id, started.response_id);

    // Another one, followed by its stream instead.
    const auto second = ask("slow 300", nullptr, background);
    ASSERT_TRUE(second.continuation_token);
    forma::agent_run_options resume;
    resume.continuation_token = second.continuation_token;
    const auto resumed = ask_streaming("", nullptr, resume);
    EXPECT_EQ(resumed.text(), "finished after 300 ms");
    EXPECT_EQ(state_of(resumed), "completed");

    // A finished task cannot be followed: its stream is its whole answer.
    const auto again = ask_streaming("", nullptr, resume);
    EXPECT_EQ(again.text(), "finished after 300 ms");
    EXPECT_EQ(again.response_id, second.response_id);
}

TEST_P(remote_agent, a_token_is_text_any_agent_for_the_same_url_can_take_back) {
    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto started = ask("slow 200", nullptr, background);
    ASSERT_TRUE(started.continuation_token);
    forma::a2a::agent other(io.get_executor(), {.base_url = server->url()});
    forma::agent_run_options poll;
    poll.continuation_token = forma::continuation_token::parse(started.continuation_token->to_string());
    const auto finished = run(other.run(std::vector<forma::chat_message>{}, nullptr, poll));
    EXPECT_EQ(finished.text(), "finished after 200 ms");
}

TEST_P(remote_agent, a_canceled_task_says_so_and_a_run_on_it_is_an_error) {
    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto started = ask("forever", nullptr, background);
    ASSERT_TRUE(started.continuation_token);
    const auto canceled = run(remote->cancel(*started.continuation_token));
    EXPECT_EQ(state_of(canceled), "canceled");

    forma::agent_run_options poll;
    poll.continuation_token = started.continuation_token;
    const std::string what = thrown_by([&] { (void)ask("", nullptr, poll); });
    EXPECT_NE(what.find("the task " + started.response_id + " was canceled"), std::string::npos) << what;
}

TEST_P(remote_agent, canceling_a_finished_task_is_an_error_with_the_agents_code) {
    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto started = ask("slow 100", nullptr, background);
    ASSERT_TRUE(started.continuation_token);
    forma::agent_run_options poll;
    poll.continuation_token = started.continuation_token;
    EXPECT_EQ(ask("", nullptr, poll).text(), "finished after 100 ms");
    try {
        (void)run(remote->cancel(*started.continuation_token));
        ADD_FAILURE() << "a finished task was canceled";
    } catch (const a2a_error& e) {
        EXPECT_EQ(e.code(), -32002) << e.what(); // TaskNotCancelableError
        EXPECT_EQ(e.agent_url(), server->url());
    }
    try {
        (void)run(remote->cancel(*started.continuation_token));
        ADD_FAILURE() << "a finished task was canceled";
    } catch (const forma::rpc_error& e) { // a2a_error's base, as mcp_error's: one handler for both
        EXPECT_EQ(e.code(), -32002) << e.what();
        EXPECT_EQ(e.peer(), server->url());
    }
}

TEST_P(remote_agent, input_required_asks_the_caller_and_the_next_run_answers_in_the_same_task) {
    auto session = remote->create_session();
    const auto question = ask("weather", session);
    EXPECT_EQ(question.text(), "Which city?");
    EXPECT_EQ(state_of(question), "input-required");
    EXPECT_TRUE(forma::awaits_input(question));
    EXPECT_FALSE(question.continuation_token);

    const auto answer = ask("Paris", session);
    EXPECT_EQ(answer.text(), "Sunny in Paris");
    EXPECT_EQ(state_of(answer), "completed");
    EXPECT_EQ(answer.response_id, question.response_id) << "the same task";
    EXPECT_EQ(session->history.size(), 4u);
}

TEST_P(remote_agent, the_session_keeps_the_context_so_a_conversation_continues) {
    auto session = remote->create_session();
    (void)ask("remember blue", session);
    EXPECT_EQ(ask("recall", session).text(), "You told me: blue");
    EXPECT_EQ(ask("recall").text(), "You told me nothing") << "a new session is a new context";

    // Streamed runs keep it too.
    auto streamed_session = remote->create_session();
    (void)ask_streaming("remember green", streamed_session);
    EXPECT_EQ(ask_streaming("recall", streamed_session).text(), "You told me: green");
    EXPECT_EQ(streamed_session->history.size(), 4u);
}

TEST_P(remote_agent, a_failed_task_is_an_error_with_the_agents_words) {
    const std::string what = thrown_by([&] { (void)ask("fail"); });
    EXPECT_NE(what.find("A2A agent at " + server->url() + ": the task "), std::string::npos) << what;
    EXPECT_NE(what.find("failed: failed on purpose"), std::string::npos) << what;
    const std::string streamed = thrown_by([&] { (void)ask_streaming("fail"); });
    EXPECT_NE(streamed.find("failed: failed on purpose"), std::string::npos) << streamed;
}

class remote_agent_with_a_short_timeout : public remote_agent {
    forma::a2a::agent_options options() override {
        auto o = remote_agent::options();
        o.task_timeout = std::chrono::milliseconds(300);
        return o;
    }
};

INSTANTIATE_TEST_SUITE_P(Versions, remote_agent_with_a_short_timeout,
                         ::testing::Values(std::nullopt, forma::a2a::protocol_version::v0_3), remote_agent_version_name);

TEST_P(remote_agent_with_a_short_timeout, a_task_that_never_finishes_is_an_error_and_is_canceled) {
    const auto started = std::chrono::steady_clock::now();
    const std::string what = thrown_by([&] { (void)ask("forever"); });
    EXPECT_NE(what.find("did not finish within 300 ms (agent_options::task_timeout); it was canceled"), std::string::npos)
        << what;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
    // The agent was told: the task is canceled there.
    const auto id_at = what.find("the task ") + 9;
    const std::string task_id = what.substr(id_at, what.find(' ', id_at) - id_at);
    forma::agent_run_options poll;
    poll.continuation_token = forma::continuation_token(boost::json::value{{"kind", "a2a.task"}, {"task_id", task_id}});
    const std::string later = thrown_by([&] { (void)ask("", nullptr, poll); });
    EXPECT_NE(later.find("the task " + task_id + " was canceled"), std::string::npos) << later;
}

TEST_P(remote_agent, a_token_of_another_kind_is_an_error) {
    forma::agent_run_options poll;
    poll.continuation_token = forma::continuation_token(boost::json::value{{"kind", "openai.responses"}, {"response_id", "r"}});
    const std::string what = thrown_by([&] { (void)ask("", nullptr, poll); });
    EXPECT_NE(what.find("the continuation token is not one of an A2A task"), std::string::npos) << what;
}

TEST_P(remote_agent, a_missing_or_wrong_card_is_an_error_naming_the_agent) {
    forma::a2a::agent missing(io.get_executor(), {.base_url = server->url("/missing")});
    const std::string no_card = thrown_by([&] { (void)run(missing.run("hello")); });
    EXPECT_NE(no_card.find("A2A agent at " + server->url("/missing") + ": has no agent card at"), std::string::npos) << no_card;
    EXPECT_NE(no_card.find("(HTTP 404)"), std::string::npos) << no_card;

    forma::a2a::agent broken(io.get_executor(), {.base_url = server->url("/broken")});
    const std::string bad_card = thrown_by([&] { (void)run(broken.run("hello")); });
    EXPECT_NE(bad_card.find("has no \"name\" string"), std::string::npos) << bad_card;
}

TEST(remote_agent_faults, nothing_listening_is_an_error_naming_the_agent) {
    asio::io_context io;
    const std::string url = "http://127.0.0.1:" + std::to_string(forma_test::free_port());
    forma::a2a::agent nobody(io.get_executor(), {.base_url = url});
    const std::string what = thrown_by([&] { (void)forma_test::run_bounded(io, nobody.run("hello"), std::chrono::seconds(30)); });
    EXPECT_NE(what.find("A2A agent at " + url + ": its agent card could not be read"), std::string::npos) << what;
}

TEST_P(remote_agent, an_agent_that_dies_mid_stream_is_an_error_not_a_hang) {
    auto stream = remote->run_streaming("slow 5000");
    const std::string what = thrown_by([&] {
        run([&]() -> asio::awaitable<bool> {
            bool killed = false;
            while (auto update = co_await stream.next()) {
                if (!killed) {
                    server->kill();
                    killed = true;
                }
            }
            co_return true;
        }());
    });
    EXPECT_NE(what.find("A2A agent at " + server->url() + ": its stream broke"), std::string::npos) << what;
}
