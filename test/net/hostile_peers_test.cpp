// Every HTTP client of forma (chat and Responses, whole and streamed; MCP over HTTP, JSON and SSE
// answers; A2A, whole and streamed; the OTLP exporter), plain and over TLS, against a server that
// breaks HTTP/1.1 framing in one answer. That answer is read to exactly its framing or fails with
// a forma::error; the connection is kept only when the framing was exact; and the next request
// always gets its own answer, never bytes the server left behind.
#include <forma/a2a.hpp>
#include <forma/mcp.hpp>
#include <forma/openai.hpp>
#include <forma/telemetry/otlp_http_exporter.hpp>

#include "support/bounded_run.hpp"
#include "support/scripted_http_server.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using forma_test::scripted_http_server;
using request = scripted_http_server::request;
using reply = scripted_http_server::reply;
using namespace std::chrono_literals;

constexpr auto idle_timeout = 300ms; // a short body then silence ends in this

std::string framed(const std::string& content_type, const std::string& body, const std::string& extra_headers = "") {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + content_type + "\r\n" + extra_headers +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string hex(std::size_t n) {
    char digits[20];
    return std::string(digits, static_cast<std::size_t>(std::snprintf(digits, sizeof digits, "%zx", n)));
}

// The head of a chunked response and its body in two chunks, without the last chunk.
std::string chunked_open(const std::string& content_type, const std::string& body) {
    const std::size_t half = body.size() / 2;
    return "HTTP/1.1 200 OK\r\nContent-Type: " + content_type + "\r\nTransfer-Encoding: chunked\r\n\r\n" + hex(half) +
           "\r\n" + body.substr(0, half) + "\r\n" + hex(body.size() - half) + "\r\n" + body.substr(half) + "\r\n";
}

std::string chunked(const std::string& content_type, const std::string& body) {
    return chunked_open(content_type, body) + "0\r\n\r\n";
}

std::string sse(const std::vector<std::string>& data) {
    std::string out;
    for (const auto& d : data) out += "data: " + d + "\n\n";
    return out;
}

// ---- The peers: what each protocol answers, and how its client asks ------------------------

struct answer_body {
    std::string content_type;
    std::string body;
};

class peer {
public:
    virtual ~peer() = default;
    /// The reply to a request that is not a question (a handshake, an agent card), else nullopt.
    virtual std::optional<reply> routine(const request&) { return std::nullopt; }
    /// The honest answer to question n (from 1).
    virtual answer_body answer(const request& r, int n) = 0;
    /// A whole response a smuggler plants as the answer to the question after `r`.
    virtual std::string forged(const request& r) = 0;
    /// Makes the client for the server at `url` (trusting `ca`, for TLS).
    virtual void start(asio::any_io_executor ex, const std::string& url, const std::string& ca) = 0;
    /// Asks one question through the client; its answer's text.
    virtual asio::awaitable<std::string> ask() = 0;
    /// What ask() returns for the honest answer to question n.
    virtual std::string expected(int n) { return "answer " + std::to_string(n); }
    /// Before the client is destroyed.
    virtual asio::awaitable<void> stop() { co_return; }
};

forma::net::timeouts short_timeouts() { return {.connect = 5s, .idle = idle_timeout, .total = 10s}; }

std::vector<forma::chat_message> question() { return {forma::chat_message(forma::chat_role::user(), "q")}; }

forma::openai::client_options openai_options(const std::string& url, const std::string& ca) {
    forma::openai::client_options o{.base_url = url + "/v1", .api_key = "sk-hostile-peer-test", .model = "m"};
    o.trust.ca_certificates = ca;
    o.timeouts = short_timeouts();
    return o;
}

asio::awaitable<std::string> joined_text(forma::update_stream stream) {
    std::string text;
    while (auto update = co_await stream.next()) text += update->text();
    co_return text;
}

std::string completion(const std::string& text) {
    return json::serialize(json::object{
        {"id", "c"}, {"object", "chat.completion"}, {"created", 1}, {"model", "m"},
        {"choices", json::array{{{"index", 0},
                                 {"message", {{"role", "assistant"}, {"content", text}}},
                                 {"finish_reason", "stop"}}}}});
}

std::string completion_stream(const std::string& text) {
    auto chunk = [](json::object delta, json::value finish) {
        return json::serialize(json::object{
            {"id", "c"}, {"object", "chat.completion.chunk"}, {"created", 1}, {"model", "m"},
            {"choices", json::array{{{"index", 0}, {"delta", std::move(delta)}, {"finish_reason", finish}}}}});
    };
    return sse({chunk({{"role", "assistant"}, {"content", text}}, nullptr), chunk({}, "stop"), "[DONE]"});
}

std::string responses_body(const std::string& text, int n) {
    return json::serialize(json::object{
        {"id", "resp_" + std::to_string(n)}, {"object", "response"}, {"created_at", 1}, {"status", "completed"},
        {"model", "m"},
        {"output", json::array{{{"type", "message"}, {"id", "msg_" + std::to_string(n)}, {"status", "completed"},
                                {"role", "assistant"},
                                {"content", json::array{{{"type", "output_text"}, {"text", text},
                                                         {"annotations", json::array()}}}}}}}});
}

std::string responses_stream(const std::string& text, int n) {
    json::object created = json::parse(responses_body(text, n)).as_object();
    created["status"] = "in_progress";
    created["output"] = json::array();
    return sse({json::serialize(json::object{{"type", "response.created"}, {"sequence_number", 0}, {"response", created}}),
                json::serialize(json::object{{"type", "response.output_text.delta"}, {"sequence_number", 1},
                                             {"item_id", "msg_" + std::to_string(n)}, {"output_index", 0},
                                             {"content_index", 0}, {"delta", text}}),
                json::serialize(json::object{{"type", "response.completed"}, {"sequence_number", 2},
                                             {"response", json::parse(responses_body(text, n))}})});
}

// The two OpenAI APIs: their client, and their whole and streamed answers.
struct chat_api {
    using client = forma::openai::chat_client;
    static std::string whole(const std::string& text, int) { return completion(text); }
    static std::string streamed(const std::string& text, int) { return completion_stream(text); }
};

struct responses_api {
    using client = forma::openai::responses_client;
    static std::string whole(const std::string& text, int n) { return responses_body(text, n); }
    static std::string streamed(const std::string& text, int n) { return responses_stream(text, n); }
};

template <class Api>
class openai_peer : public peer {
public:
    explicit openai_peer(bool streamed) : streamed_(streamed) {}
    answer_body answer(const request&, int n) override { return body_of("answer " + std::to_string(n), n); }
    std::string forged(const request&) override {
        const answer_body planted = body_of("forged", 99);
        return framed(planted.content_type, planted.body);
    }
    void start(asio::any_io_executor ex, const std::string& url, const std::string& ca) override {
        client_.emplace(ex, openai_options(url, ca));
    }
    asio::awaitable<std::string> ask() override {
        // Named, not braced temporaries: GCC 12 miscompiles those inside co_await.
        forma::chat_options options;
        std::vector<forma::chat_message> messages = question();
        if (streamed_) {
            forma::update_stream stream = client_->get_streaming_response(std::move(messages), std::move(options));
            co_return co_await joined_text(std::move(stream));
        }
        const forma::agent_response<> r = co_await client_->get_response(std::move(messages), std::move(options));
        co_return r.text();
    }

private:
    answer_body body_of(const std::string& text, int n) const {
        if (streamed_) return {"text/event-stream", Api::streamed(text, n)};
        return {"application/json", Api::whole(text, n)};
    }
    bool streamed_;
    std::optional<typename Api::client> client_;
};

std::string rpc_result(const json::value& id, json::value result) {
    return json::serialize(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

// The id of the JSON-RPC request after `r`'s: what a smuggler answers in advance.
json::value next_id(const request& r) { return json::parse(r.body).at("id").to_number<std::int64_t>() + 1; }

// A JSON-RPC peer answers a request by its id; a smuggler answers the next id in advance.
class json_rpc_peer : public peer {
public:
    answer_body answer(const request& r, int n) override {
        return body_of(json::parse(r.body).at("id"), "answer " + std::to_string(n));
    }
    std::string forged(const request& r) override {
        const answer_body planted = body_of(next_id(r), "forged");
        return framed(planted.content_type, planted.body);
    }

protected:
    virtual answer_body body_of(const json::value& id, const std::string& text) const = 0;
};

class mcp_peer : public json_rpc_peer {
public:
    explicit mcp_peer(bool sse_answers) : sse_(sse_answers) {}
    std::optional<reply> routine(const request& r) override {
        if (r.method != "POST") return reply(scripted_http_server::response(405, "text/plain", ""));
        const json::object message = json::parse(r.body).as_object();
        if (message.at("method") == "initialize") {
            const std::string body = rpc_result(message.at("id"), {{"protocolVersion", "2025-06-18"},
                                                                   {"capabilities", {{"tools", json::object()}}},
                                                                   {"serverInfo", {{"name", "stand-in"}, {"version", "1"}}}});
            return reply(framed("application/json", body, "Mcp-Session-Id: s-1\r\n"));
        }
        if (!message.contains("id")) return reply(scripted_http_server::response(202, "application/json", ""));
        return std::nullopt;
    }
    void start(asio::any_io_executor ex, const std::string& url, const std::string& ca) override {
        forma::mcp::http_server server{.url = url + "/mcp", .timeouts = short_timeouts(), .listen = false};
        server.trust.ca_certificates = ca;
        client_.emplace(ex, forma::mcp::make_http_transport(ex, server));
    }
    asio::awaitable<std::string> ask() override {
        if (!connected_) {
            co_await client_->connect();
            connected_ = true;
        }
        boost::json::object arguments;
        const forma::mcp::call_result result = co_await client_->call_tool("echo", std::move(arguments));
        co_return result.text();
    }
    asio::awaitable<void> stop() override { co_await client_->close(); }

private:
    answer_body body_of(const json::value& id, const std::string& text) const override {
        const std::string message = rpc_result(id, {{"content", json::array{{{"type", "text"}, {"text", text}}}}});
        if (sse_) return {"text/event-stream", "event: message\n" + sse({message})};
        return {"application/json", message};
    }
    bool sse_;
    bool connected_ = false;
    std::optional<forma::mcp::client> client_;
};

class a2a_peer : public json_rpc_peer {
public:
    explicit a2a_peer(bool streamed) : streamed_(streamed) {}
    std::optional<reply> routine(const request& r) override {
        if (r.method != "GET") return std::nullopt;
        const json::object card{{"name", "stand-in"},
                                {"url", url_ + "/rpc"},
                                {"protocolVersion", "0.3.0"},
                                {"capabilities", {{"streaming", streamed_}}}};
        return reply(framed("application/json", json::serialize(card)));
    }
    void start(asio::any_io_executor ex, const std::string& url, const std::string& ca) override {
        url_ = url;
        forma::a2a::agent_options options{.base_url = url, .timeouts = short_timeouts()};
        options.trust.ca_certificates = ca;
        agent_.emplace(ex, options);
    }
    asio::awaitable<std::string> ask() override {
        if (streamed_) {
            forma::update_stream stream = agent_->run_streaming("q");
            co_return co_await joined_text(std::move(stream));
        }
        const forma::agent_response<> r = co_await agent_->run("q");
        co_return r.text();
    }

private:
    answer_body body_of(const json::value& id, const std::string& text) const override {
        const json::value message = {{"kind", "message"}, {"messageId", "m-1"}, {"role", "agent"},
                                     {"contextId", "c-1"}, {"parts", {{{"kind", "text"}, {"text", text}}}}};
        const std::string body = rpc_result(id, message);
        if (streamed_) return {"text/event-stream", sse({body})};
        return {"application/json", body};
    }
    bool streamed_;
    std::string url_;
    std::optional<forma::a2a::agent> agent_;
};

class otlp_peer : public peer {
public:
    std::optional<reply> routine(const request& r) override {
        if (r.target() == "/v1/traces") return std::nullopt;
        return reply(framed("application/json", "{}")); // metrics
    }
    answer_body answer(const request&, int) override { return {"application/json", "{}"}; }
    std::string forged(const request&) override {
        return "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nforged";
    }
    void start(asio::any_io_executor ex, const std::string& url, const std::string& ca) override {
        forma::telemetry::otlp_http_exporter_options options{.base_url = url, .timeouts = short_timeouts()};
        options.trust.ca_certificates = ca;
        exporter_.emplace(ex, options);
    }
    asio::awaitable<std::string> ask() override {
        const int n = ++asked_;
        const auto before = exporter_->exported_spans();
        forma::telemetry::span_data span{.name = "span"};
        exporter_->export_span(std::move(span));
        co_await exporter_->flush();
        if (exporter_->exported_spans() != before + 1) throw forma::error(exporter_->last_error());
        co_return "exported " + std::to_string(n);
    }
    std::string expected(int n) override { return "exported " + std::to_string(n); }

private:
    int asked_ = 0;
    std::optional<forma::telemetry::otlp_http_exporter> exporter_;
};

std::unique_ptr<peer> make_peer(std::string_view name) {
    if (name == "chat") return std::make_unique<openai_peer<chat_api>>(false);
    if (name == "chat_stream") return std::make_unique<openai_peer<chat_api>>(true);
    if (name == "responses") return std::make_unique<openai_peer<responses_api>>(false);
    if (name == "responses_stream") return std::make_unique<openai_peer<responses_api>>(true);
    if (name == "mcp") return std::make_unique<mcp_peer>(false);
    if (name == "mcp_sse") return std::make_unique<mcp_peer>(true);
    if (name == "a2a") return std::make_unique<a2a_peer>(false);
    if (name == "a2a_stream") return std::make_unique<a2a_peer>(true);
    return std::make_unique<otlp_peer>();
}

// ---- The ways to break framing ----------------------------------------------------------------

/// Whether the broken answer is still taken as the answer.
enum class taken {
    yes, // its framing held it whole
    no,  // its framing is broken: an error
    // The body arrived whole but its framing says more is to come: an error, but for a client
    // that hands out events as they arrive (MCP and A2A streams), which may have its answer.
    not_unless_streamed,
};

struct scenario {
    const char* name;
    taken first_answered;
    /// The reply to the first question, from the honest answer and a planted response.
    std::function<reply(const answer_body& honest, const std::string& planted)> apply;
};

reply stalled(std::string bytes) {
    reply r(std::move(bytes));
    r.after = reply::then::stall;
    return r;
}

reply closing(std::string bytes) {
    reply r(std::move(bytes));
    r.after = reply::then::close;
    return r;
}

reply with_later(std::string bytes, std::string later, reply::then after = reply::then::go_on) {
    reply r(std::move(bytes));
    r.later = std::move(later);
    r.after = after;
    return r;
}

std::string short_body(const answer_body& a) {
    return "HTTP/1.1 200 OK\r\nContent-Type: " + a.content_type + "\r\nContent-Length: " +
           std::to_string(a.body.size() + 10) + "\r\n\r\n" + a.body;
}

const std::string continue_100 = "HTTP/1.1 100 Continue\r\n\r\n";
const std::string early_hints_103 = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n";

const scenario scenarios[] = {
    {"bytes_past_content_length", taken::yes,
     [](const answer_body& a, const std::string&) { return reply(framed(a.content_type, a.body) + "GARBAGE\r\n\r\n"); }},
    {"two_responses_in_one_packet", taken::yes,
     [](const answer_body& a, const std::string& planted) { return reply(framed(a.content_type, a.body) + planted); }},
    {"a_response_before_the_next_request", taken::yes,
     [](const answer_body& a, const std::string& planted) { return with_later(framed(a.content_type, a.body), planted); }},
    {"connection_close_said_but_kept_open", taken::yes,
     [](const answer_body& a, const std::string& planted) {
         return with_later(framed(a.content_type, a.body, "Connection: close\r\n"), planted, reply::then::stall);
     }},
    {"a_short_body_then_close", taken::not_unless_streamed, [](const answer_body& a, const std::string&) { return closing(short_body(a)); }},
    {"a_short_body_then_silence", taken::not_unless_streamed, [](const answer_body& a, const std::string&) { return stalled(short_body(a)); }},
    {"100_continue_before_the_answer", taken::yes,
     [](const answer_body& a, const std::string&) { return reply(continue_100 + framed(a.content_type, a.body)); }},
    {"103_early_hints_before_the_answer", taken::yes,
     [](const answer_body& a, const std::string&) { return reply(early_hints_103 + framed(a.content_type, a.body)); }},
    {"interim_responses_then_the_answer_in_another_packet", taken::yes,
     [](const answer_body& a, const std::string&) {
         return with_later(continue_100 + early_hints_103, framed(a.content_type, a.body));
     }},
    {"too_many_interim_responses", taken::no,
     [](const answer_body& a, const std::string&) {
         std::string interim;
         for (int i = 0; i < 9; ++i) interim += continue_100;
         return reply(interim + framed(a.content_type, a.body));
     }},
    {"101_switching_protocols_unasked", taken::no,
     [](const answer_body& a, const std::string&) {
         return reply("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n" +
                      framed(a.content_type, a.body));
     }},
    {"chunked_answer", taken::yes, [](const answer_body& a, const std::string&) { return reply(chunked(a.content_type, a.body)); }},
    {"a_chunk_size_that_is_not_hex", taken::no,
     [](const answer_body& a, const std::string&) {
         return reply("HTTP/1.1 200 OK\r\nContent-Type: " + a.content_type +
                      "\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + a.body + "\r\n0\r\n\r\n");
     }},
    {"bytes_after_the_last_chunk", taken::yes,
     [](const answer_body& a, const std::string& planted) { return reply(chunked(a.content_type, a.body) + planted); }},
    {"a_chunked_body_cut_then_close", taken::not_unless_streamed,
     [](const answer_body& a, const std::string&) { return closing(chunked_open(a.content_type, a.body) + "40\r\nabc"); }},
    {"content_length_and_chunked_together", taken::no,
     [](const answer_body& a, const std::string& planted) {
         const std::string body = chunked(a.content_type, a.body);
         const std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n";
         return reply(head + body.substr(std::string_view("HTTP/1.1 200 OK\r\n").size()) + planted);
     }},
};

const char* const peer_names[] = {"chat", "chat_stream", "responses", "responses_stream", "mcp",
                                  "mcp_sse", "a2a", "a2a_stream", "otlp"};

struct hostile_case {
    std::string peer;
    const scenario* breaks;
    bool tls;
};

std::string case_name(const testing::TestParamInfo<hostile_case>& info) {
    return info.param.peer + "_" + info.param.breaks->name + (info.param.tls ? "_tls" : "_plain");
}

std::vector<hostile_case> all_cases() {
    std::vector<hostile_case> cases;
    for (const char* name : peer_names)
        for (const scenario& s : scenarios)
            for (bool tls : {false, true}) cases.push_back({name, &s, tls});
    return cases;
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

void PrintTo(const hostile_case& c, std::ostream* out) { *out << c.peer << " " << c.breaks->name << (c.tls ? " tls" : " plain"); }

class hostile_peer : public testing::TestWithParam<hostile_case> {};

TEST_P(hostile_peer, the_next_request_gets_its_own_answer) {
    const hostile_case& c = GetParam();
    asio::io_context io;
    const std::unique_ptr<peer> p = make_peer(c.peer); // its client goes before the io_context
    int questions = 0;
    bool writes_later = false;
    scripted_http_server server(
        io,
        [&](const request& r) -> reply {
            if (auto routine = p->routine(r)) return *routine;
            const int n = ++questions;
            const answer_body honest = p->answer(r, n);
            if (n > 1) return reply(framed(honest.content_type, honest.body));
            reply broken = c.breaks->apply(honest, p->forged(r));
            writes_later = !broken.later.empty();
            return broken;
        },
        {.tls = c.tls});
    p->start(io.get_executor(), server.url(), server.certificate_pem());

    const bool streamed = c.peer == "mcp_sse" || c.peer == "a2a_stream";
    try {
        const std::string first = forma_test::run_bounded(io, p->ask(), 10s);
        EXPECT_TRUE(c.breaks->first_answered == taken::yes ||
                    (c.breaks->first_answered == taken::not_unless_streamed && streamed))
            << "a broken answer was taken: " << first;
        EXPECT_EQ(first, p->expected(1));
    } catch (const forma::error& e) {
        EXPECT_NE(c.breaks->first_answered, taken::yes) << e.what();
        EXPECT_TRUE(is_valid_utf8(e.what())) << e.what();
    }
    // What the server had still to write (a planted response) is out before the next request goes.
    const auto until = std::chrono::steady_clock::now() + 5s;
    while (writes_later && server.later_writes() == 0 && std::chrono::steady_clock::now() < until) {
        io.restart();
        io.run_for(5ms);
    }

    const std::string second = forma_test::run_bounded(io, p->ask(), 10s);
    EXPECT_EQ(second, p->expected(2)) << "the second request got another answer";
    EXPECT_EQ(questions, 2) << "a question was sent twice";
    forma_test::run_bounded(io, p->stop(), 10s);
}

INSTANTIATE_TEST_SUITE_P(wire, hostile_peer, testing::ValuesIn(all_cases()), case_name);

} // namespace
