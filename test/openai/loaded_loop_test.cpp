// openai::chat_client on an io_context so loaded that its timeouts expire while completed
// operations still wait in the queue: every exchange must end with its answer or a timeout.
#include "loopback.hpp"

#include <forma/net/transport_error.hpp>

#include <boost/asio/steady_timer.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <thread>

namespace {

using namespace std::chrono_literals;
using loopback::ask;
using loopback::drain;
namespace asio = boost::asio;

class loaded_loop_test : public loopback::fixture {};

// Regression: when the io_context ran late, a connection's watchdog could run between two
// steps of an operation (a TLS write of the head, then of the body, each delivered through a
// post) and close the socket. The step after it still read or wrote the descriptor by number,
// by then another connection's (here: "TLS handshake failed: unexpected message", a handshake
// reading another connection's bytes); and when the operation had succeeded, the next one
// re-armed the timeout, forgot it had expired, and failed as "closed" (Bad file descriptor)
// instead of a timeout.
TEST_F(loaded_loop_test, a_timeout_that_expires_between_the_steps_of_an_operation_is_a_timeout) {
    auto& s = server({.delta_size = 4});
    auto options = options_for(s);
    options.timeouts.idle = 100ms;
    options.retry.max_retries = 0;
    forma::openai::chat_client client(io.get_executor(), options);

    constexpr int runs = 200;
    int finished = 0, answered = 0, timed_out = 0;
    std::vector<std::string> other_outcomes;
    for (int i = 0; i < runs; ++i) {
        const std::string prompt = "prompt number " + std::to_string(i);
        asio::co_spawn(
            io, drain(client.get_streaming_response(ask(prompt), {})),
            [&, prompt](std::exception_ptr e, std::vector<forma::agent_response_update> updates) {
                ++finished;
                std::string text;
                for (const auto& u : updates)
                    text += u.text();
                if (!e) {
                    if (text == "You said: " + prompt)
                        ++answered;
                    else
                        other_outcomes.push_back("wrong text: " + text);
                    return;
                }
                try {
                    std::rethrow_exception(e);
                } catch (const forma::transport_error& error) {
                    if (error.kind() == forma::transport_error_kind::timeout)
                        ++timed_out;
                    else
                        other_outcomes.push_back(error.what());
                } catch (const std::exception& error) {
                    other_outcomes.push_back(error.what());
                }
            });
    }
    // Hogs the thread for longer than the idle timeout, again and again.
    asio::steady_timer hog(io);
    std::function<void()> lag = [&] {
        std::this_thread::sleep_for(120ms);
        hog.expires_after(30ms);
        hog.async_wait([&](boost::system::error_code ec) {
            if (!ec && finished < runs) lag();
        });
    };
    lag();
    ASSERT_TRUE(run_until([&] { return finished == runs; }, 60s))
        << finished << " of " << runs << " ended";
    for (const auto& outcome : other_outcomes)
        ADD_FAILURE() << outcome;
    EXPECT_EQ(answered + timed_out, runs);
    EXPECT_GT(timed_out, 0) << "the loop was loaded enough for timeouts";
    RecordProperty("answered", answered);
    RecordProperty("timed_out", timed_out);
}

} // namespace
