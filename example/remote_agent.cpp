// Remote agents: an agent reached with the Agent2Agent protocol (A2A) is used as any forma agent:
// through run<T>, in a conversation where it asks back, and through a long-running task that is
// left, kept as text (where a server would store it) and resumed.
//
//   remote_agent http://127.0.0.1:41241    the agent's base URL (its card is at
//                                          /.well-known/agent-card.json)
//
// The prompts are those test/a2a/test_agent.mjs (an agent on the official A2A SDK) understands;
// CTest runs this example against it.
#include "example_support.hpp"

#include <forma/a2a.hpp>
#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <iostream>
#include <string>
#include <vector>

struct person {
    std::string name;
    int age = 0;
    std::string occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

std::string state_of(const forma::agent_response<>& r) {
    const auto* state = r.additional_properties.if_contains("a2a.task_state");
    return state && state->is_string() ? std::string(state->get_string()) : "no task";
}

boost::asio::awaitable<void> use_remote_agent(std::string url) {
    const auto executor = co_await boost::asio::this_coro::executor;
    forma::a2a::agent remote(executor, {.base_url = url});
    co_await remote.connect();
    std::cout << "agent: " << remote.card().name << " (streams: " << (remote.card().streaming ? "yes" : "no") << ")\n";

    // A typed answer: the agent's data part (or JSON text), read as a person.
    const forma::agent_response<person> typed = co_await remote.run<person>("person");
    const person& p = typed.result();
    std::cout << "run<person>: " << p.name << ", " << p.age << ", " << p.occupation << '\n';

    // A conversation in one session: the agent asks back (input-required), the next run answers.
    auto session = remote.create_session();
    const auto question = co_await remote.run("weather", session);
    std::cout << "asked back: " << question.text() << " [" << state_of(question) << "]\n";
    const auto answer = co_await remote.run("Oslo", session);
    std::cout << "answer: " << answer.text() << " [" << state_of(answer) << "]\n";

    // A long task, left running: the response carries a continuation token, kept as text.
    forma::agent_run_options background;
    background.allow_background_responses = true;
    const auto started = co_await remote.run("slow 1000", nullptr, background);
    const std::string kept = started.continuation_token->to_string();
    std::cout << "started: [" << state_of(started) << "], token kept\n";

    // Later, perhaps in another process: the token resumes the task's stream.
    forma::agent_run_options resume;
    resume.continuation_token = forma::continuation_token::parse(kept);
    auto stream = remote.run_streaming(std::vector<forma::chat_message>{}, nullptr, resume);
    while (auto update = co_await stream.next()) {
        if (!update->text().empty()) std::cout << "resumed: " << update->text() << '\n';
    }
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: remote_agent <A2A agent base URL>\n";
        return 2;
    }
    try {
        boost::asio::io_context io;
        example::run(io, use_remote_agent(argv[1]));
        return 0;
    } catch (const forma::a2a::a2a_error& e) {
        std::cerr << "The remote agent failed: " << e.what() << '\n';
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
    }
    return 1;
}
