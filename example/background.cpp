// Long-running runs on the Responses API: a run started in the background, its token printed
// (it could be stored and passed to another process), polled to its end; then a streamed
// background run whose connection drops and resumes from the last token, losing nothing.
//
// Runs against the OpenAI service when OPENAI_API_KEY is set (OPENAI_MODEL, default
// gpt-4o-mini; OPENAI_BASE_URL for another server with the Responses API's background runs),
// and otherwise against forma's local model server, whose background runs take a moment and
// whose streams drop after a few events.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace asio = boost::asio;
using namespace std::chrono_literals;

// Polls a background run until it has an answer.
asio::awaitable<forma::agent_response<>> poll(forma::agent& writer, std::shared_ptr<forma::agent_session> session,
                                              forma::agent_response<> r) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    int polls = 0;
    while (r.continuation_token) {
        timer.expires_after(50ms);
        co_await timer.async_wait(asio::use_awaitable);
        forma::agent_run_options poll; // named: GCC 12 mishandles braced temporaries in co_await
        poll.continuation_token = r.continuation_token;
        std::vector<forma::chat_message> nothing_new;
        r = co_await writer.run(std::move(nothing_new), session, std::move(poll));
        ++polls;
    }
    std::cout << "finished after " << (polls > 1 ? "several polls" : "one poll") << '\n';
    co_return r;
}

// Streams a background run, resuming after each dropped connection from the last token seen.
asio::awaitable<std::string> stream_with_resumes(forma::agent& writer, std::string prompt) {
    std::string text;
    std::optional<forma::continuation_token> last;
    int resumes = 0;
    forma::update_stream stream = writer.run_streaming(std::move(prompt), nullptr, {.allow_background_responses = true});
    for (;;) {
        try {
            while (auto update = co_await stream.next()) {
                text += update->text();
                last = update->continuation_token;
            }
            break; // the final update carries no token: the run is over
        } catch (const forma::error& e) {
            if (!last) throw; // nothing to resume from
            ++resumes;
            stream = writer.run_streaming(std::vector<forma::chat_message>{}, nullptr, {.continuation_token = last});
        }
    }
    std::cout << "the stream " << (resumes > 0 ? "dropped and resumed" : "never dropped") << '\n';
    co_return text;
}

int main() try {
    asio::io_context io;
    example::model model(io, {.background_duration = 300ms, .drop_stream_after_events = 12});
    forma::openai::responses_client client(io.get_executor(), model.client_options());
    forma::chat_client_agent writer(client, {.name = "writer"});

    example::run(io, [&]() -> asio::awaitable<void> {
        auto session = writer.create_session();
        forma::agent_run_options in_background;
        in_background.allow_background_responses = true;
        forma::agent_response<> started =
            co_await writer.run("Explain why the sea has tides", session, std::move(in_background));
        if (started.continuation_token)
            std::cout << "started in the background, token " << started.continuation_token->to_string() << '\n';
        const forma::agent_response<> done = co_await poll(writer, session, std::move(started));
        std::cout << "answer: " << done.text() << '\n';

        const std::string streamed =
            co_await stream_with_resumes(writer, "Now tell me, at length and slowly, about the moon and the sea");
        std::cout << "streamed answer: " << streamed << '\n';
    }());
    return 0;
} catch (const std::exception& e) {
    std::cerr << "Failed: " << e.what() << '\n';
    return 1;
}
