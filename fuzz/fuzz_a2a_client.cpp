// forma::a2a::agent (the A2A client) reading what an agent answers: its card (either version's
// shape, interfaces, capabilities), then JSON-RPC answers to a send (a Message, a Task in any
// state, errors), to the polls and follows of an unfinished task, and a stream's events, each
// as JSON or an event stream, in 1.0's or 0.3's shapes. The first record is the card ("$URL"
// its endpoint), the others answer the requests in order. A run, then a second on the same
// session (an answer to input-required), whole or streamed (the config byte). Oracle: only
// typed errors (a2a_error, forma::error) escape, each a readable sentence; a response merges
// (to_agent_response of a stream's updates) and reads (text, awaits_input).
#include "fuzz_clients.hpp"

#include <forma/a2a/agent.hpp>
#include <forma/model/awaits_input.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

namespace {

boost::asio::awaitable<void> one_run(forma::a2a::agent& remote, std::shared_ptr<forma::agent_session> session, bool streamed,
                                     std::string text, const forma::agent_run_options& options) {
    forma::agent_response<> response;
    if (streamed) {
        forma::update_stream stream = remote.run_streaming(std::move(text), session, options);
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
        response = forma::to_agent_response(updates);
    } else {
        response = co_await remote.run(std::move(text), session, options);
    }
    (void)response.text();
    (void)forma::awaits_input(response);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    const bool as_events = config & 1;
    const bool keep_ids = config & 2;
    const bool streamed = config & 4;
    const bool background = config & 8;
    std::vector<std::string> answers = forma_fuzz::answer_records({reinterpret_cast<const char*>(data) + 1, size - 1});
    std::size_t next = 0;
    boost::asio::io_context io;
    std::string own_url;
    forma_test::scripted_http_server server(io, [&](const forma_test::scripted_http_server::request& r) -> forma_test::scripted_http_server::reply {
        if (next >= answers.size()) return {}; // nothing more to say: the connection drops
        std::string body = forma_fuzz::replaced(answers[next++], "$URL", own_url);
        if (r.method == "GET") return forma_test::scripted_http_server::response(200, "application/json", body);
        if (!keep_ids) body = forma_fuzz::replaced(std::move(body), "$ID", forma_fuzz::request_id(r.body));
        return forma_fuzz::answer_with(body, as_events && r.has_header("Accept: text/event-stream"));
    });
    own_url = server.url("/a2a");
    // Short waits: a task that never ends (polled, or a stream that stops) ends by them.
    using std::chrono::milliseconds;
    forma::a2a::agent_options options{.base_url = server.url(), .timeouts = {.connect = milliseconds(300), .idle = milliseconds(300)},
                                      .task_timeout = milliseconds(100), .poll_interval = milliseconds(1)};
    if (config & 16) options.speak = (config & 32) ? forma::a2a::protocol_version::v1_0 : forma::a2a::protocol_version::v0_3;
    forma::a2a::agent remote(io.get_executor(), options);
    bool done = false;
    boost::asio::co_spawn(io, [&]() -> boost::asio::awaitable<void> {
        try {
            auto session = remote.create_session();
            forma::agent_run_options run_options;
            run_options.allow_background_responses = background;
            co_await one_run(remote, session, streamed, "hello", run_options);
            co_await one_run(remote, session, streamed, "approve", run_options);
        } catch (...) {
            forma_fuzz::check_thrown(std::current_exception());
        }
        done = true;
    }, boost::asio::detached);
    while (!done) io.run_one();
    return 0;
}
