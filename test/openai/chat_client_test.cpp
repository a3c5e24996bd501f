// openai::chat_client against the local model server over real TLS on loopback.
#include "loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/refusal_error.hpp>
#include <forma/json/json_error.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>

#include <boost/asio/ssl/context.hpp>

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using forma::testing::scripted_reply;
using loopback::ask;
using loopback::drain;
namespace asio = boost::asio;

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

class chat_client_test : public loopback::fixture {};

std::string joined_text(const std::vector<forma::agent_response_update>& updates) {
    std::string text;
    for (const auto& u : updates) text += u.text();
    return text;
}

template <class Error, class F>
Error expect_throw(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "threw another error: " << e.what();
        throw;
    }
    ADD_FAILURE() << "did not throw";
    throw std::logic_error("no exception");
}

TEST_F(chat_client_test, answers_a_plain_request_over_tls) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    const auto response = run(client.get_response(ask("hello there"), {}));
    EXPECT_EQ(response.text(), "You said: hello there");
    ASSERT_TRUE(response.finish_reason);
    EXPECT_EQ(*response.finish_reason, forma::finish_reason::stop());
    ASSERT_TRUE(response.usage);
    EXPECT_EQ(response.usage->input_token_count, 2);
    EXPECT_FALSE(response.response_id.empty());
    EXPECT_EQ(response.additional_properties.at("model").as_string(), "forma-local");

    const auto requests = s.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].method, "POST");
    EXPECT_EQ(requests[0].target, "/v1/chat/completions");
    EXPECT_EQ(requests[0].header("authorization"), "Bearer sk-test-secret-key-0123456789");
    EXPECT_EQ(requests[0].header("content-type"), "application/json");
    const auto body = boost::json::parse(requests[0].body).as_object();
    EXPECT_EQ(body.at("model").as_string(), "forma-local");
    EXPECT_FALSE(body.contains("stream"));
}

TEST_F(chat_client_test, streams_updates_as_they_arrive) {
    auto& s = server({.delta_size = 3});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    const auto updates = run(drain(client.get_streaming_response(ask("stream me a reply"), {})));
    EXPECT_EQ(joined_text(updates), "You said: stream me a reply");
    EXPECT_GT(updates.size(), 8u); // deltas of 3 bytes, one update each
    const auto merged = forma::to_agent_response(updates);
    EXPECT_EQ(merged.text(), "You said: stream me a reply");
    ASSERT_TRUE(merged.finish_reason);
    EXPECT_EQ(*merged.finish_reason, forma::finish_reason::stop());
    ASSERT_TRUE(merged.usage); // the usage-only chunk that include_usage asks for
    EXPECT_EQ(merged.usage->input_token_count, 4);

    const auto requests = s.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0].header("accept"), "text/event-stream");
    const auto body = boost::json::parse(requests[0].body).as_object();
    EXPECT_TRUE(body.at("stream").as_bool());
}

TEST_F(chat_client_test, run_typed_gets_a_schema_driven_answer) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    auto response = run(agent.run<person>("John Smith is a software engineer"));
    const person& p = response.result();
    EXPECT_FALSE(p.name.empty());
    EXPECT_NE(std::string("John Smith is a software engineer").find(p.name), std::string::npos)
        << "strings come from the prompt's words: " << p.name;

    const auto body = boost::json::parse(s.requests().at(0).body).as_object();
    const auto& format = body.at("response_format").as_object();
    EXPECT_EQ(format.at("type").as_string(), "json_schema");
    EXPECT_TRUE(format.at("json_schema").as_object().at("strict").as_bool());
}

TEST_F(chat_client_test, run_streaming_typed_fills_a_partial_from_a_streamed_schema_driven_answer) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {.name = "extractor"});
    struct outcome {
        std::size_t events = 0, events_with_name = 0;
        std::string last_name;
        std::optional<person> result;
    };
    const outcome o = run([&]() -> boost::asio::awaitable<outcome> {
        outcome out;
        auto stream = agent.run_streaming<person>("John Smith is a software engineer");
        while (auto event = co_await stream.next()) {
            ++out.events;
            const auto& name = event->snapshot()[&person::name];
            if (name.has_value()) ++out.events_with_name;
            if (!out.last_name.empty()) {
                EXPECT_EQ(name.value().rfind(out.last_name, 0), 0u) << "the name shrank";
            }
            out.last_name = name.value();
            if (event->is_final()) out.result = event->result();
        }
        co_return out;
    }());
    ASSERT_TRUE(o.result);
    EXPECT_EQ(o.result->name, o.last_name);
    EXPECT_NE(std::string("John Smith is a software engineer").find(o.result->name), std::string::npos);
    EXPECT_GT(o.events, 2u) << "the answer came in several updates";
    const auto body = boost::json::parse(s.requests().at(0).body).as_object();
    EXPECT_TRUE(body.at("stream").as_bool());
    EXPECT_EQ(body.at("response_format").as_object().at("type").as_string(), "json_schema");
}

TEST_F(chat_client_test, sequential_requests_reuse_one_connection) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    run(client.get_response(ask("one"), {}));
    run(drain(client.get_streaming_response(ask("two"), {})));
    run(client.get_response(ask("three"), {}));
    EXPECT_EQ(s.requests().size(), 3u);
    EXPECT_EQ(s.connections_accepted(), 1u);
    EXPECT_EQ(client.idle_connections(), 1u);
}

TEST_F(chat_client_test, a_finished_exchange_leaves_no_timer_behind) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s)); // idle timeout 10 s
    run(client.get_response(ask("one"), {}));
    run(drain(client.get_streaming_response(ask("two"), {})));
    s.stop();
    io.restart();
    const auto started = std::chrono::steady_clock::now();
    io.run_for(8s); // returns as soon as nothing is left to do
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s) << "a timeout timer outlived its exchange";
}

TEST_F(chat_client_test, a_kept_connection_the_server_closed_is_replaced_without_a_retry) {
    auto& s = server();
    auto options = options_for(s);
    options.retry.max_retries = 0; // the replacement must not count as a retry
    forma::openai::chat_client client(io.get_executor(), options);
    // A whole answer, then the server closes the connection without saying so (no
    // "Connection: close"): the client keeps a connection that is already dead.
    auto answer_then_close = scripted_reply::completion("and goodbye");
    answer_then_close.ending = forma::testing::reply_ending::drop;
    s.enqueue(answer_then_close);
    EXPECT_EQ(run(client.get_response(ask("one"), {})).text(), "and goodbye");
    EXPECT_EQ(client.idle_connections(), 1u);
    EXPECT_EQ(run(client.get_response(ask("two"), {})).text(), "You said: two");
    EXPECT_EQ(s.connections_accepted(), 2u);
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST_F(chat_client_test, a_connection_close_answer_is_not_kept) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::completion("closing").with_header("Connection", "close"));
    EXPECT_EQ(run(client.get_response(ask("one"), {})).text(), "closing");
    EXPECT_EQ(client.idle_connections(), 0u);
    EXPECT_EQ(run(client.get_response(ask("two"), {})).text(), "You said: two");
    EXPECT_EQ(s.connections_accepted(), 2u);
}

TEST_F(chat_client_test, concurrent_requests_each_get_their_answer) {
    auto& s = server({.delta_size = 2});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto all = [&]() -> asio::awaitable<std::vector<std::string>> {
        std::vector<forma::update_stream> streams;
        for (int i = 0; i < 20; ++i) streams.push_back(client.get_streaming_response(ask("prompt " + std::to_string(i)), {}));
        // Interleave: one update from each stream in turn.
        std::vector<std::string> texts(streams.size());
        std::vector<bool> ended(streams.size());
        for (std::size_t live = streams.size(); live > 0;) {
            for (std::size_t i = 0; i < streams.size(); ++i) {
                if (ended[i]) continue;
                if (auto u = co_await streams[i].next())
                    texts[i] += u->text();
                else {
                    ended[i] = true;
                    --live;
                }
            }
        }
        co_return texts;
    };
    const auto texts = run(all());
    for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(texts[i], "You said: prompt " + std::to_string(i));
    EXPECT_LE(client.idle_connections(), client.options().max_idle_connections);
}

TEST_F(chat_client_test, http_errors_carry_the_providers_message_and_never_the_key) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::error(401, "invalid_request_error",
                                    "Incorrect API key provided: sk-test-secret-key-0123456789.", "invalid_api_key"));
    const auto e = expect_throw<forma::http_error>([&] { run(client.get_response(ask("hi"), {})); });
    EXPECT_EQ(e.status(), 401);
    EXPECT_EQ(e.code(), "invalid_api_key");
    EXPECT_EQ(std::string(e.what()).find("sk-test-secret"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[redacted]"), std::string::npos) << e.what();
    EXPECT_EQ(s.requests().size(), 1u) << "401 is not retried";
}

TEST_F(chat_client_test, a_429_with_retry_after_is_retried_and_succeeds) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::error(429, "requests", "Rate limit reached", "rate_limit_exceeded")
                  .with_header("retry-after-ms", "30"));
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(run(client.get_response(ask("patience"), {})).text(), "You said: patience");
    EXPECT_GE(std::chrono::steady_clock::now() - started, 30ms) << "the server's wait was honoured";
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST_F(chat_client_test, server_errors_are_retried_up_to_the_policy_then_reported) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s)); // max_retries = 2
    for (int i = 0; i < 3; ++i) s.enqueue(scripted_reply::error(500, "server_error", "The server had an error"));
    const auto e = expect_throw<forma::http_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.status(), 500);
    EXPECT_NE(std::string(e.what()).find("The server had an error"), std::string::npos) << e.what();
    EXPECT_EQ(s.requests().size(), 3u);

    for (int i = 0; i < 2; ++i) s.enqueue(scripted_reply::error(503, "server_error", "overloaded"));
    EXPECT_EQ(run(client.get_response(ask("again"), {})).text(), "You said: again");
    EXPECT_EQ(s.requests().size(), 6u);
}

TEST_F(chat_client_test, a_retry_after_longer_than_the_policy_allows_fails_at_once) {
    auto& s = server();
    auto options = options_for(s);
    options.retry.max_retry_after = 1s;
    forma::openai::chat_client client(io.get_executor(), options);
    s.enqueue(scripted_reply::error(429, "requests", "slow down").with_header("Retry-After", "120"));
    const auto started = std::chrono::steady_clock::now();
    const auto e = expect_throw<forma::http_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.status(), 429);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 1s);
    EXPECT_EQ(s.requests().size(), 1u);
}

TEST_F(chat_client_test, a_stream_dropped_midway_is_a_transport_error_and_is_not_retried) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::stream("a long answer that will be cut", 4).drop_after(3));
    std::size_t received = 0;
    auto consume = [&]() -> asio::awaitable<int> {
        auto stream = client.get_streaming_response(ask("x"), {});
        while (auto u = co_await stream.next()) received += u->text().size();
        co_return 0;
    };
    const auto e = expect_throw<forma::transport_error>([&] { run(consume()); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::closed);
    EXPECT_FALSE(e.before_response());
    EXPECT_GT(received, 0u) << "the updates before the drop were delivered";
    EXPECT_EQ(s.requests().size(), 1u) << "a stream that has begun is never repeated";
    EXPECT_TRUE(run_until([&] { return s.open_connections() == 0; }));
}

TEST_F(chat_client_test, a_stream_that_ends_without_done_or_finish_reason_is_incomplete) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::events(
        {R"({"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"half"},"finish_reason":null}]})"}));
    const auto e = expect_throw<forma::stream_error>([&] { run(drain(client.get_streaming_response(ask("x"), {}))); });
    EXPECT_EQ(e.kind(), forma::stream_error_kind::incomplete);
}

TEST_F(chat_client_test, a_malformed_event_is_a_json_error) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::events({R"({"id":"c1","object":"chat.completion.chunk","choices":[{"delta":{"content":)", "[DONE]"}));
    expect_throw<forma::json_error>([&] { run(drain(client.get_streaming_response(ask("x"), {}))); });
}

TEST_F(chat_client_test, an_error_event_inside_a_stream_is_an_http_error_with_status_0) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::events({R"({"error":{"message":"model overloaded","type":"server_error","code":null}})"}));
    const auto e = expect_throw<forma::http_error>([&] { run(drain(client.get_streaming_response(ask("x"), {}))); });
    EXPECT_EQ(e.status(), 0);
    EXPECT_EQ(e.message(), "model overloaded");
}

TEST_F(chat_client_test, invalid_json_in_a_plain_body_is_a_json_error) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::json(R"({"id":"x","choices":[{"message":)"));
    expect_throw<forma::json_error>([&] { run(client.get_response(ask("x"), {})); });
}

TEST_F(chat_client_test, slow_chunks_within_the_idle_timeout_arrive_whole) {
    auto& s = server();
    auto options = options_for(s);
    options.timeouts.idle = 2s;
    forma::openai::chat_client client(io.get_executor(), options);
    auto reply = scripted_reply::stream("slowly but surely", 6);
    reply.chunk_delay = 40ms;
    s.enqueue(reply);
    EXPECT_EQ(joined_text(run(drain(client.get_streaming_response(ask("x"), {})))), "slowly but surely");
}

TEST_F(chat_client_test, a_stalled_stream_ends_with_an_idle_timeout) {
    auto& s = server();
    auto options = options_for(s);
    options.timeouts.idle = 300ms;
    forma::openai::chat_client client(io.get_executor(), options);
    s.enqueue(scripted_reply::stream("never finished", 4).stall_after(2));
    const auto started = std::chrono::steady_clock::now();
    const auto e = expect_throw<forma::transport_error>([&] { run(drain(client.get_streaming_response(ask("x"), {}))); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::timeout);
    EXPECT_NE(std::string(e.what()).find("idle timeout"), std::string::npos) << e.what();
    EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
    EXPECT_TRUE(run_until([&] { return s.open_connections() == 0; }));
}

TEST_F(chat_client_test, a_slow_stream_past_the_total_timeout_is_stopped) {
    auto& s = server();
    auto options = options_for(s);
    options.timeouts.total = 400ms;
    forma::openai::chat_client client(io.get_executor(), options);
    auto reply = scripted_reply::stream("one word at a time, forever and ever and ever", 2);
    reply.chunk_delay = 50ms;
    s.enqueue(reply);
    const auto e = expect_throw<forma::transport_error>([&] { run(drain(client.get_streaming_response(ask("x"), {}))); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::timeout);
    EXPECT_NE(std::string(e.what()).find("total timeout"), std::string::npos) << e.what();
}

TEST_F(chat_client_test, a_server_that_sends_no_headers_hits_the_idle_timeout_and_is_retried) {
    auto& s = server();
    auto options = options_for(s);
    options.timeouts.idle = 200ms;
    options.retry.max_retries = 1;
    forma::openai::chat_client client(io.get_executor(), options);
    auto stall = scripted_reply::json("");
    stall.status = 0; // no status line: the server reads the request and says nothing
    stall.ending = forma::testing::reply_ending::stall;
    s.enqueue(stall);
    EXPECT_EQ(run(client.get_response(ask("second time lucky"), {})).text(), "You said: second time lucky");
    EXPECT_EQ(s.requests().size(), 2u);
}

TEST_F(chat_client_test, a_refused_connection_is_retried_then_reported) {
    unsigned short port = 0;
    {
        auto probe = std::make_unique<forma::testing::model_server>(io.get_executor());
        port = probe->port();
    } // closed: nothing listens there now
    forma::openai::client_options options;
    options.base_url = "https://127.0.0.1:" + std::to_string(port) + "/v1";
    options.model = "m";
    options.retry.initial_backoff = 1ms;
    forma::openai::chat_client client(io.get_executor(), options);
    const auto e = expect_throw<forma::transport_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::connect);
    EXPECT_TRUE(e.before_response());
    EXPECT_NE(std::string(e.what()).find("127.0.0.1:" + std::to_string(port)), std::string::npos) << e.what();
}

TEST_F(chat_client_test, an_untrusted_certificate_fails_the_handshake_and_is_not_retried) {
    auto& s = server();
    auto options = options_for(s);
    options.trust.ca_certificates.clear();
    forma::openai::chat_client client(io.get_executor(), options);
    const auto e = expect_throw<forma::transport_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::tls);
    EXPECT_NE(std::string(e.what()).find("self-signed"), std::string::npos) << e.what();
    EXPECT_EQ(s.connections_accepted(), 1u);
}

TEST_F(chat_client_test, a_certificate_for_another_name_fails_host_verification) {
    auto& s = server({.certificate = forma::testing::make_self_signed_certificate({"other.example"}, {})});
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    const auto e = expect_throw<forma::transport_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::tls);
    EXPECT_NE(std::string(e.what()).find("mismatch"), std::string::npos) << e.what();
}

TEST_F(chat_client_test, verify_peer_off_accepts_any_certificate) {
    auto& s = server({.certificate = forma::testing::make_self_signed_certificate({"other.example"}, {})});
    auto options = options_for(s);
    options.trust.ca_certificates.clear();
    options.trust.verify_peer = false;
    forma::openai::chat_client client(io.get_executor(), options);
    EXPECT_EQ(run(client.get_response(ask("trusting"), {})).text(), "You said: trusting");
}

TEST_F(chat_client_test, a_callers_tls_context_is_used_as_it_is) {
    auto& s = server();
    auto options = options_for(s);
    const std::string anchor = options.trust.ca_certificates;
    options.trust.ca_certificates.clear(); // ignored beside a context anyway: the context decides
    auto trusting = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
    trusting->set_verify_mode(boost::asio::ssl::verify_peer);
    trusting->add_certificate_authority(boost::asio::buffer(anchor));
    options.trust.context = trusting;
    forma::openai::chat_client client(io.get_executor(), options);
    EXPECT_EQ(run(client.get_response(ask("own context"), {})).text(), "You said: own context");

    auto empty = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
    empty->set_verify_mode(boost::asio::ssl::verify_peer);
    options.trust = {.ca_certificates = anchor, .context = empty};
    forma::openai::chat_client refusing(io.get_executor(), options);
    const auto e = expect_throw<forma::transport_error>([&] { run(refusing.get_response(ask("x"), {})); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::tls) << "the context's trust, not ca_certificates, decided";
}

TEST_F(chat_client_test, a_callers_tls_context_still_gets_the_host_name_check) {
    auto& other = server({.certificate = forma::testing::make_self_signed_certificate({"other.example"}, {})});
    auto for_other = options_for(other);
    auto trusting_other = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_client);
    trusting_other->set_verify_mode(boost::asio::ssl::verify_peer);
    trusting_other->add_certificate_authority(boost::asio::buffer(for_other.trust.ca_certificates));
    for_other.trust.context = trusting_other;
    forma::openai::chat_client misnamed(io.get_executor(), for_other);
    const auto m = expect_throw<forma::transport_error>([&] { run(misnamed.get_response(ask("x"), {})); });
    EXPECT_NE(std::string(m.what()).find("mismatch"), std::string::npos) << "forma set the name check: " << m.what();
}

TEST_F(chat_client_test, a_host_name_is_verified_by_name_and_sent_as_sni) {
    auto& s = server();
    auto options = options_for(s);
    options.base_url = "https://localhost:" + std::to_string(s.port()) + "/v1";
    forma::openai::chat_client client(io.get_executor(), options);
    EXPECT_EQ(run(client.get_response(ask("by name"), {})).text(), "You said: by name");
    EXPECT_EQ(s.requests().at(0).header("host"), "localhost:" + std::to_string(s.port()));
}

TEST_F(chat_client_test, speaks_tls_1_2_and_tls_1_3) {
    for (auto versions : {forma::testing::tls_versions::tls12_only, forma::testing::tls_versions::tls13_only}) {
        forma::testing::model_server s(io.get_executor(), {.versions = versions});
        forma::openai::chat_client client(io.get_executor(), options_for(s));
        EXPECT_EQ(run(client.get_response(ask("versions"), {})).text(), "You said: versions");
    }
}

TEST_F(chat_client_test, speaks_plain_http) {
    auto& s = server({.tls = false});
    ASSERT_EQ(s.base_url().rfind("http://", 0), 0u);
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    EXPECT_EQ(run(client.get_response(ask("in the clear"), {})).text(), "You said: in the clear");
}

TEST_F(chat_client_test, azure_mode_uses_the_deployment_url_and_the_api_key_header) {
    auto& s = server();
    auto options = options_for(s);
    options.model.clear();
    options.azure = forma::openai::azure_options{.deployment = "gpt4o-prod", .api_version = "2024-10-21"};
    forma::openai::chat_client client(io.get_executor(), options);
    EXPECT_EQ(run(client.get_response(ask("azure"), {})).text(), "You said: azure");
    const auto request = s.requests().at(0);
    EXPECT_EQ(request.target, "/v1/deployments/gpt4o-prod/chat/completions?api-version=2024-10-21");
    EXPECT_EQ(request.header("api-key"), "sk-test-secret-key-0123456789");
    EXPECT_EQ(request.header("authorization"), "");
    EXPECT_EQ(boost::json::parse(request.body).at("model").as_string(), "gpt4o-prod");
}

TEST_F(chat_client_test, organization_project_and_extra_headers_are_sent) {
    auto& s = server();
    auto options = options_for(s);
    options.organization = "org-1";
    options.project = "proj-2";
    options.headers = {{"X-Gateway", "blue"}};
    forma::openai::chat_client client(io.get_executor(), options);
    run(client.get_response(ask("x"), {}));
    const auto request = s.requests().at(0);
    EXPECT_EQ(request.header("openai-organization"), "org-1");
    EXPECT_EQ(request.header("openai-project"), "proj-2");
    EXPECT_EQ(request.header("x-gateway"), "blue");
}

TEST_F(chat_client_test, a_body_over_the_limit_fails_and_closes_the_connection) {
    auto& s = server();
    auto options = options_for(s);
    options.max_response_body = 100;
    forma::openai::chat_client client(io.get_executor(), options);
    s.enqueue(scripted_reply::completion(std::string(500, 'x')));
    const auto e = expect_throw<forma::transport_error>([&] { run(client.get_response(ask("x"), {})); });
    EXPECT_EQ(e.kind(), forma::transport_error_kind::body_too_large);
    EXPECT_EQ(client.idle_connections(), 0u);
}

TEST_F(chat_client_test, a_stream_over_the_byte_limit_fails_and_closes_the_connection) {
    auto& s = server();
    const std::string answer(4000, 'x');
    s.enqueue(scripted_reply::stream(answer, 100));
    s.enqueue(scripted_reply::stream(answer, 100));
    auto options = options_for(s);
    options.max_stream_bytes = 5000; // the body is larger: 40 events of 100 bytes of text each
    forma::openai::chat_client small(io.get_executor(), options);
    std::size_t received = 0;
    auto consume = [&]() -> asio::awaitable<int> {
        auto stream = small.get_streaming_response(ask("x"), {});
        while (auto u = co_await stream.next()) received += u->text().size();
        co_return 0;
    };
    const auto e = expect_throw<forma::stream_error>([&] { run(consume()); });
    EXPECT_EQ(e.kind(), forma::stream_error_kind::stream_too_large);
    EXPECT_NE(std::string(e.what()).find("max_stream_bytes"), std::string::npos) << e.what();
    EXPECT_GT(received, 0u);
    EXPECT_LT(received, answer.size());
    EXPECT_EQ(small.idle_connections(), 0u);

    options.max_stream_bytes = 200000;
    forma::openai::chat_client large(io.get_executor(), options);
    received = 0;
    auto consume_large = [&]() -> asio::awaitable<int> {
        auto stream = large.get_streaming_response(ask("x"), {});
        while (auto u = co_await stream.next()) received += u->text().size();
        co_return 0;
    };
    run(consume_large());
    EXPECT_EQ(received, answer.size());
}

TEST_F(chat_client_test, a_refusal_reaches_run_typed_as_refusal_error) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {});
    s.enqueue(scripted_reply::json(
        R"({"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop","logprobs":null}]})"));
    auto response = run(agent.run<person>("x"));
    const auto e = expect_throw<forma::refusal_error>([&] { (void)response.result(); });
    EXPECT_NE(std::string(e.what()).find("I can't help with that."), std::string::npos);
}

TEST_F(chat_client_test, a_length_cut_reaches_run_typed_as_output_truncated_error) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    forma::chat_client_agent agent(client, {});
    s.enqueue(scripted_reply::completion(R"({"name":"Jo)", "length"));
    auto response = run(agent.run<person>("x"));
    expect_throw<forma::output_truncated_error>([&] { (void)response.result(); });
}

TEST_F(chat_client_test, a_server_that_ignores_stream_is_read_as_one_update_list) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::completion("whole at once"));
    const auto updates = run(drain(client.get_streaming_response(ask("x"), {})));
    EXPECT_EQ(forma::to_agent_response(updates).text(), "whole at once");
}

TEST_F(chat_client_test, a_json_media_type_is_recognised_in_any_case_and_with_parameters) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    auto whole = scripted_reply::completion("whole, in capitals");
    whole.content_type = "Application/JSON ; charset=utf-8";
    s.enqueue(whole);
    const auto updates = run(drain(client.get_streaming_response(ask("x"), {})));
    EXPECT_EQ(forma::to_agent_response(updates).text(), "whole, in capitals");

    auto stream = scripted_reply::stream("streamed anyway", 4);
    stream.content_type = "TEXT/Event-Stream; charset=utf-8";
    s.enqueue(stream);
    const auto streamed = run(drain(client.get_streaming_response(ask("y"), {})));
    EXPECT_EQ(forma::to_agent_response(streamed).text(), "streamed anyway");
}

TEST_F(chat_client_test, cancelling_a_stalled_stream_closes_the_connection_promptly) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s)); // idle timeout 10 s
    s.enqueue(scripted_reply::stream("stuck", 2).stall_after(2));
    asio::cancellation_signal cancel;
    std::exception_ptr failure;
    bool done = false;
    asio::co_spawn(io, drain(client.get_streaming_response(ask("x"), {})),
                   asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr e, auto) {
                       failure = e;
                       done = true;
                   }));
    asio::steady_timer timer(io, 200ms);
    timer.async_wait([&](auto) { cancel.emit(asio::cancellation_type::terminal); });
    const auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(run_until([&] { return done; }, 5s));
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s);
    ASSERT_TRUE(failure);
    const auto e = expect_throw<boost::system::system_error>([&] { std::rethrow_exception(failure); });
    EXPECT_EQ(e.code(), asio::error::operation_aborted);
    EXPECT_TRUE(run_until([&] { return s.open_connections() == 0; }));
}

TEST_F(chat_client_test, destroying_a_stream_midway_closes_its_connection) {
    auto& s = server();
    forma::openai::chat_client client(io.get_executor(), options_for(s));
    s.enqueue(scripted_reply::stream("many small pieces of an answer", 2).stall_after(4));
    auto first_two = [&]() -> asio::awaitable<std::size_t> {
        auto stream = client.get_streaming_response(ask("x"), {});
        std::size_t got = 0;
        while (got < 2 && co_await stream.next()) ++got;
        co_return got; // the stream is destroyed here, mid-body
    };
    EXPECT_EQ(run(first_two()), 2u);
    EXPECT_TRUE(run_until([&] { return s.open_connections() == 0; }));
    EXPECT_EQ(client.idle_connections(), 0u);
}

TEST_F(chat_client_test, a_request_that_cannot_be_built_fails_before_any_io) {
    auto& s = server();
    auto options = options_for(s);
    options.model.clear();
    forma::openai::chat_client client(io.get_executor(), options);
    EXPECT_THROW((void)client.get_response(ask("x"), {}), forma::error);
    EXPECT_EQ(s.connections_accepted(), 0u);
}

TEST(chat_client_options, a_bad_base_url_or_ca_file_is_reported_at_construction) {
    asio::io_context io;
    EXPECT_THROW(forma::openai::chat_client(io.get_executor(), {.base_url = "ftp://example.com"}), forma::error);
    try {
        forma::openai::chat_client(io.get_executor(), {.trust = {.ca_file = "/nonexistent/ca.pem"}});
        FAIL() << "no error";
    } catch (const forma::error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/ca.pem"), std::string::npos) << e.what();
    }
}

} // namespace
