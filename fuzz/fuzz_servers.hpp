// What the server fuzz targets share: one agent served over A2A, the OpenAI endpoints, AG-UI and
// MCP on shared stores, and a fuzz input read as a sequence of requests to them, each answered
// in process (the routes' own handling, as http_server runs it) and checked:
//   - every answer is valid UTF-8; a JSON one parses; each event of a stream does;
//   - it is in its protocol's shape (a JSON-RPC response with the request's id, OpenAI's error
//     object, AG-UI's error), and a 5xx only where the agent was made to fail;
//   - after the sequence, no approved call ran twice, no run goes on, the task store is within
//     its limits, and no task waits for an answer to nothing.
// The agent is a chat_client_agent over a model of rules (no timers: every run ends while the
// request is answered), with a tool that needs approval.
//
// Input: a config byte (which caller, the A2A version header, the body's media type), then
// records separated by 0x1e, each a selector byte (which route) and the request's body (or,
// for a route that names a task, its id). "$0" to "$9" in a record are the ids the answers gave
// so far (tasks, contexts, interrupts, MCP sessions), so that a sequence can answer, continue,
// cancel and follow what it started, and try another protocol's or caller's.
//
// The served world is compiled once (fuzz_servers.cpp, a library the four server targets link):
// each target's own unit holds only its records and oracles.
#pragma once

#include "fuzz_support.hpp"

#include <forma/net/http_reply.hpp>
#include <forma/net/server_request.hpp>

#include <boost/json/value.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma_fuzz {

/// A response_writer that keeps what a handler answered.
class kept_answer final : public forma::net::response_writer {
public:
    boost::asio::awaitable<void> send(forma::net::http_reply reply) override {
        check(!started_, "a handler answered twice");
        started_ = true;
        head = std::move(reply);
        body = head.body;
        co_return;
    }
    boost::asio::awaitable<void> start(forma::net::http_reply reply) override {
        check(!started_, "a handler started an answer twice");
        started_ = streamed = true;
        head = std::move(reply);
        body = head.body;
        co_return;
    }
    boost::asio::awaitable<void> write(std::string_view bytes) override {
        check(streamed && !finished, "a handler wrote outside its stream");
        body.append(bytes);
        co_return;
    }
    boost::asio::awaitable<void> finish() override {
        check(streamed, "a handler finished an answer it did not start");
        finished = true;
        co_return;
    }
    /// The data of each event of a streamed answer.
    std::vector<std::string> events() const;

    forma::net::http_reply head;
    std::string body;
    bool streamed = false;
    bool finished = false;
};

/// The servers of one fuzz input, and its requests.
class served_world {
public:
    served_world();
    ~served_world();
    served_world(const served_world&) = delete;
    served_world& operator=(const served_world&) = delete;

    /// The answer to `request`, checked; the ids it gave are remembered for "$0".."$9".
    /// `leaves_an_idle_stream`: the client goes (the handler is canceled) once its stream has
    /// started and nothing is left to run, as a client of a stream that ends only with it (MCP's
    /// GET) does.
    kept_answer ask(forma::net::server_request request, bool leaves_an_idle_stream = false);

    /// `text` with "$0".."$9" replaced by the ids the answers gave (an id not given yet: "none").
    std::string with_ids(std::string_view text) const;

    /** After the sequence: no approved call ran twice; no run goes on; the store is within its
        limits, and a task that waits for an answer has something to be answered. */
    void check_consistent();

    /// The JSON of an answer; a finding when it does not parse.
    static boost::json::value parsed(std::string_view text);

private:
    class servers;
    std::unique_ptr<servers> servers_;
};

/** A JSON-RPC 2.0 answer (or, streamed, each event) to `request_body`: a response with a result
    or an error {code, message}, with the request's id when it had a usable one. */
void check_json_rpc_answer(std::string_view request_body, const kept_answer& answer);

/// A request as a fuzz record makes it.
forma::net::server_request request_of(std::string method, std::string path, std::string body, std::uint8_t config);

/** An input as a sequence on one served_world: for each record, `each(world, selector, config,
    body)` with the record's selector byte, the config byte as that record's caller makes it (the
    selector's bit 3 flips it), and the rest with the ids put in; then the world's checks. */
template <class Each>
void run_sequence(const std::uint8_t* data, std::size_t size, Each each) {
    if (size == 0) return;
    const std::uint8_t config = data[0];
    served_world world;
    for (const std::string_view record : records({reinterpret_cast<const char*>(data) + 1, size - 1})) {
        if (record.empty()) continue;
        const auto selector = static_cast<std::uint8_t>(record[0]);
        each(world, selector, static_cast<std::uint8_t>(config ^ (selector & 8)), record.substr(1));
    }
    world.check_consistent();
}

} // namespace forma_fuzz
