// Writing a provider: a chat_client for a chat API forma does not know, written with the provider
// kit (provider_transport, exchange_whole, stream_updates), so that the API's own JSON is all it
// writes and reads. The API is "Parrot", a small JSON-over-HTTP chat API that this example also
// serves on loopback: POST /v1/reply answers with the last user turn, whole or as server-sent
// events, states its rate limit in a header and its errors in a shape of its own.
// Then agents, streaming, telemetry and the typed errors work over it as over OpenAI's clients.
#include <forma/forma.hpp>
#include <forma/net/http_server.hpp>
#include <forma/net/sse_parser.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// ---- The Parrot API's JSON, as described structs: forma writes and reads them. ----

namespace parrot {

struct turn {
    std::string from; // "user", "parrot" or "tool"
    std::string text;
};
BOOST_DESCRIBE_STRUCT(turn, (), (from, text))

struct request {
    std::string model;
    std::string system;
    std::vector<turn> turns;
    bool stream = false;
};
BOOST_DESCRIBE_STRUCT(request, (), (model, system, turns, stream))

struct tokens {
    std::int64_t in = 0;
    std::int64_t out = 0;
};
BOOST_DESCRIBE_STRUCT(tokens, (), (in, out))

struct reply { // a whole answer, and the `end` event of a stream (without text)
    std::string id;
    std::string text;
    std::string stop; // "done" or "length"
    tokens used;
};
BOOST_DESCRIBE_STRUCT(reply, (), (id, text, stop, used))

struct piece { // a `piece` event of a stream
    std::string text;
};
BOOST_DESCRIBE_STRUCT(piece, (), (text))

struct problem { // the body of an error status
    std::string kind;
    std::string detail;
};
BOOST_DESCRIBE_STRUCT(problem, (), (kind, detail))

// ---- The server: what a real Parrot deployment would run. ----

constexpr std::string_view key = "parrot-key-0123456789";

forma::net::http_routes routes() {
    forma::net::http_routes table;
    table.add("POST", "/v1/reply", [](forma::net::server_request& http, forma::net::response_writer& writer)
                                       -> boost::asio::awaitable<void> {
        static int requests_left = 100;
        const std::string* presented = http.header("x-parrot-key");
        if (!presented || *presented != key) {
            forma::net::http_reply refused{.status = 401,
                                           .body = forma::to_json(problem{"bad_key", "The key is not known."})};
            co_await writer.send(std::move(refused));
            co_return;
        }
        const auto asked = forma::from_json<request>(http.body);
        const std::string said = asked.turns.empty() ? "" : "Parrot says: " + asked.turns.back().text;
        const tokens used{.in = static_cast<std::int64_t>(asked.turns.size()), .out = 3};
        const std::vector<std::pair<std::string, std::string>> limits{
            {"parrot-requests-left", std::to_string(--requests_left)}};
        if (!asked.stream) {
            forma::net::http_reply whole{.body = forma::to_json(reply{"p-1", said, "done", used}), .headers = limits};
            co_await writer.send(std::move(whole));
            co_return;
        }
        forma::net::http_reply head{.content_type = "text/event-stream", .headers = limits};
        co_await writer.start(std::move(head));
        for (std::size_t at = 0; at < said.size(); at += 8) {
            const std::string event = forma::net::format_sse_event(forma::to_json(piece{said.substr(at, 8)}), "piece");
            co_await writer.write(event);
        }
        const std::string end = forma::net::format_sse_event(forma::to_json(reply{"p-2", "", "done", used}), "end");
        co_await writer.write(end);
        co_await writer.finish();
    });
    return table;
}

} // namespace parrot

// ---- The provider: a chat_client for the Parrot API. ----

namespace {

// Parrot's messages from forma's: the instructions apart, each message's text as a turn.
parrot::request to_parrot(const forma::chat_request& chat, const std::string& default_model, bool stream) {
    parrot::request out{.model = chat.options.model.empty() ? default_model : chat.options.model,
                        .system = chat.options.instructions,
                        .turns = {},
                        .stream = stream};
    for (const forma::chat_message& message : chat.messages)
        out.turns.push_back({message.role == forma::chat_role::assistant() ? "parrot" : message.role.value(),
                             message.text()});
    return out;
}

forma::finish_reason to_finish(const std::string& stop) {
    return stop == "length" ? forma::finish_reason::length() : forma::finish_reason::stop();
}

forma::usage_details to_usage(const parrot::tokens& used) {
    return {.input_token_count = used.in, .output_token_count = used.out, .total_token_count = used.in + used.out};
}

// A Parrot stream's events as updates: a piece is text, the end event the finish and usage.
struct parrot_stream_mapping {
    forma::net::sse_parser events{};
    std::string response_id;

    std::optional<forma::agent_response_update> next(std::string_view& bytes) {
        while (const forma::net::sse_event* event = events.next(bytes)) {
            if (event->type == "piece")
                return forma::agent_response_update(forma::chat_role::assistant(),
                                                    forma::from_json<parrot::piece>(event->data).text);
            if (event->type == "end") {
                const auto end = forma::from_json<parrot::reply>(event->data);
                forma::agent_response_update last;
                last.contents.emplace_back(forma::usage_content(to_usage(end.used)));
                last.response_id = end.id;
                last.finish_reason = to_finish(end.stop);
                ended = true;
                return last;
            }
        }
        return std::nullopt;
    }
    void finish() const {
        if (!ended) throw forma::stream_error(forma::stream_error_kind::protocol, "the Parrot stream ended without its end event");
    }
    std::vector<forma::agent_response_update> whole(std::string_view body) const;
    bool ended = false;
};

forma::agent_response<> to_response(std::string_view body) {
    const auto answer = forma::from_json<parrot::reply>(body);
    forma::agent_response<> response(forma::chat_message(forma::chat_role::assistant(), answer.text));
    response.response_id = answer.id;
    response.finish_reason = to_finish(answer.stop);
    response.usage = to_usage(answer.used);
    return response;
}

std::vector<forma::agent_response_update> parrot_stream_mapping::whole(std::string_view body) const {
    return to_response(body).to_updates();
}

} // namespace

class parrot_client final : public forma::chat_client {
public:
    parrot_client(executor_type executor, std::string base_url, std::string key, std::string model)
        : transport_(std::make_shared<forma::provider_transport>(
              std::move(executor),
              forma::provider_transport_options{
                  .base_url = std::move(base_url),
                  .headers = {{"X-Parrot-Key", key}}, // a credential-named header: never in an error
                  .rate_limit_headers = {.remaining_requests = "parrot-requests-left"},
                  .read_error =
                      [](int status, std::string_view body) {
                          const auto said = forma::try_from_json<parrot::problem>(body);
                          return said ? forma::http_error(status, said->kind, said->detail)
                                      : forma::http_error(status, {}, "the Parrot server failed");
                      }})),
          model_(std::move(model)) {}

    executor_type get_executor() const override { return transport_->executor(); }

    forma::provider_metadata provider() const override {
        return {.name = "parrot",
                .server_address = transport_->server().host,
                .server_port = transport_->server().port,
                .default_model = model_};
    }

protected:
    boost::asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        forma::provider_request http{.target = transport_->target("/reply"),
                                     .body = forma::to_json(to_parrot(request, model_, false))};
        return forma::exchange_whole(transport_, std::move(http), std::move(request.context), to_response);
    }

    forma::update_stream get_streaming_response_core(forma::chat_request request) override {
        forma::provider_request http{.target = transport_->target("/reply"),
                                     .body = forma::to_json(to_parrot(request, model_, true))};
        return forma::stream_updates(transport_, std::move(http), std::move(request.context), parrot_stream_mapping{});
    }

private:
    std::shared_ptr<forma::provider_transport> transport_;
    std::string model_;
};

// ---- Using it: as any other chat client. ----

boost::asio::awaitable<void> use_parrot(std::string base_url) {
    const auto executor = co_await boost::asio::this_coro::executor;
    auto parrot = std::make_shared<parrot_client>(executor, base_url, std::string(parrot::key), "parrot-1");
    auto spans = std::make_shared<forma::telemetry::in_memory_exporter>();
    auto client = forma::chat_client_builder(parrot).use_telemetry().build();
    forma::chat_client_agent assistant(*client, {.name = "assistant", .instructions = "Repeat after me."});
    auto agent = forma::agent_builder(assistant).use_telemetry({.exporter = spans}).build();

    const forma::agent_response<> whole = co_await agent->run("Hello, Parrot");
    std::cout << "Whole: " << whole.text() << '\n';
    if (whole.rate_limits && whole.rate_limits->remaining_requests)
        std::cout << "Requests left: " << *whole.rate_limits->remaining_requests << '\n';

    std::cout << "Streamed:";
    forma::update_stream stream = agent->run_streaming("Pieces of eight");
    forma::agent_response_builder merged;
    while (auto update = co_await stream.next()) {
        if (!update->text().empty()) std::cout << " [" << update->text() << "]";
        merged.add(*update);
    }
    std::cout << '\n' << "Merged: " << merged.response().text() << '\n';

    for (const auto& span : spans->spans()) std::cout << "Span: " << span.name << '\n';

    parrot_client stranger(executor, base_url, "parrot-key-not-this-one", "parrot-1");
    std::vector<forma::chat_message> hello{forma::chat_message(forma::chat_role::user(), "Hello?")};
    try {
        co_await stranger.get_response(std::move(hello)); // named first: g++ 12 and braced temporaries in co_await
    } catch (const forma::http_error& e) {
        std::cout << "Refused: " << e.what() << '\n';
    }
}

int main() {
    boost::asio::io_context io;
    forma::net::http_server server(io.get_executor(), parrot::routes());
    server.listen({"127.0.0.1", 0});
    boost::asio::co_spawn(io, server.run(), boost::asio::detached);
    std::exception_ptr failure;
    boost::asio::co_spawn(io, use_parrot("http://127.0.0.1:" + std::to_string(server.port()) + "/v1"),
                          [&](std::exception_ptr e) {
                              failure = e;
                              server.stop();
                          });
    io.run_for(std::chrono::seconds(60));
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const std::exception& e) {
            std::cerr << "Failed: " << e.what() << '\n';
        }
        return 1;
    }
    return 0;
}
