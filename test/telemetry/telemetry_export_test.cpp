// Telemetry end to end: an agent over the OpenAI client against the local model server (TLS),
// spans exported over OTLP/HTTP JSON to a local HTTP receiver (the model server in plain HTTP
// answering every path), checked against the OTLP JSON mapping.

#include <forma/agent/chat_client_agent.hpp>
#include <forma/chat/chat_client_builder.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/telemetry/otlp_http_exporter.hpp>

#include "../openai/loopback.hpp"
#include "span_reading.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>

#include <regex>
#include <thread>

namespace {

using namespace span_reading;
using forma::testing::scripted_reply;
namespace attr = forma::telemetry::gen_ai::attr;
namespace json = boost::json;

constexpr std::string_view api_key = "sk-test-secret-key-0123456789";

class telemetry_export : public loopback::fixture {
protected:
    /// A plain-HTTP server that accepts every OTLP export with an empty JSON answer.
    forma::testing::model_server& receiver() {
        if (!receiver_) {
            receiver_ = std::make_unique<forma::testing::model_server>(io.get_executor(),
                                                                       forma::testing::model_server_options{.tls = false});
            receiver_->set_handler([](const forma::testing::received_request&) { return scripted_reply::json("{}"); });
        }
        return *receiver_;
    }

    static std::string endpoint_of(const forma::testing::model_server& s) {
        return "http://127.0.0.1:" + std::to_string(s.port());
    }

    /// The agent under test: an assistant over the OpenAI client (recorded as chat spans unless
    /// `chat_spans` is false), with telemetry to `exporter`.
    std::shared_ptr<forma::agent> agent_with(std::shared_ptr<forma::telemetry::exporter> exporter,
                                             bool sensitive = true, bool chat_spans = true) {
        auto provider = std::make_shared<forma::openai::chat_client>(io.get_executor(), options_for(server()));
        client_ = chat_spans ? forma::chat_client_builder(provider).use_telemetry().build() : provider;
        inner_ = std::make_unique<forma::chat_client_agent>(
            *client_, forma::chat_client_agent_options{.name = "assistant", .instructions = "Be brief."});
        return forma::agent_builder(*inner_)
            .use_telemetry({.exporter = std::move(exporter), .sensitive_data = sensitive})
            .build();
    }

    /// The bodies the receiver got on `path`, parsed.
    std::vector<json::value> received(std::string_view path) {
        std::vector<json::value> out;
        for (const auto& r : receiver().requests())
            if (r.target == path) out.push_back(json::parse(r.body));
        return out;
    }

    std::unique_ptr<forma::testing::model_server> receiver_;
    std::shared_ptr<forma::chat_client> client_;
    std::unique_ptr<forma::chat_client_agent> inner_;
    std::shared_ptr<forma::telemetry::in_memory_exporter> memory =
        std::make_shared<forma::telemetry::in_memory_exporter>();
};

TEST_F(telemetry_export, agent_and_chat_spans_form_one_trace_and_the_server_gets_the_traceparent) {
    auto agent = agent_with(memory);
    EXPECT_EQ(run(agent->run("Hello")).text(), "You said: Hello");

    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    const auto& chat = spans[0]; // the inner span ends first
    const auto& invoke = spans[1];
    EXPECT_EQ(invoke.name, "invoke_agent assistant");
    EXPECT_EQ(chat.name, "chat forma-local");
    EXPECT_EQ(chat.kind, forma::telemetry::span_kind::client);
    EXPECT_EQ(chat.context.trace_id, invoke.context.trace_id);
    EXPECT_EQ(chat.parent_span_id, invoke.context.span_id);
    EXPECT_FALSE(invoke.parent_span_id);

    ASSERT_EQ(server().requests().size(), 1u);
    EXPECT_EQ(server().requests()[0].header("traceparent"), forma::telemetry::to_traceparent(chat.context));

    for (const auto* span : {&chat, &invoke}) {
        EXPECT_EQ(text(*span, attr::provider_name), "openai") << span->name;
        EXPECT_EQ(text(*span, attr::server_address), "127.0.0.1") << span->name;
        EXPECT_EQ(attribute<std::int64_t>(*span, attr::server_port), server().port()) << span->name;
        EXPECT_EQ(text(*span, attr::request_model), "forma-local") << span->name;
        EXPECT_EQ(text(*span, attr::response_model), "forma-local") << span->name;
        EXPECT_TRUE(text(*span, attr::response_id).value_or("").starts_with("chatcmpl-")) << span->name;
        EXPECT_GT(attribute<std::int64_t>(*span, attr::usage_input_tokens).value_or(0), 0) << span->name;
        EXPECT_GT(attribute<std::int64_t>(*span, attr::usage_output_tokens).value_or(0), 0) << span->name;
        EXPECT_EQ(attribute<std::vector<std::string>>(*span, attr::response_finish_reasons),
                  std::vector<std::string>{"stop"});
    }
    EXPECT_EQ(text(chat, attr::operation_name), "chat");
    EXPECT_FALSE(has(chat, attr::agent_name));
    // What the chat call sent: the system instructions apart, the user message as input.
    EXPECT_EQ(json::parse(*text(chat, attr::system_instructions)),
              json::parse(R"([{"type":"text","content":"Be brief."}])"));
    EXPECT_EQ(json::parse(*text(chat, attr::input_messages)),
              json::parse(R"([{"role":"user","parts":[{"type":"text","content":"Hello"}]}])"));
}

TEST_F(telemetry_export, a_streamed_chat_span_records_time_to_first_chunk) {
    auto agent = agent_with(memory, false);
    const auto updates = run(loopback::drain(agent->run_streaming("Hello there")));
    EXPECT_FALSE(updates.empty());
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    for (const auto& span : spans) {
        EXPECT_EQ(attribute<bool>(span, attr::request_stream), true) << span.name;
        EXPECT_TRUE(has(span, attr::response_time_to_first_chunk)) << span.name;
        EXPECT_EQ(text(span, attr::response_model), "forma-local") << span.name;
    }
    EXPECT_EQ(spans[0].parent_span_id, spans[1].context.span_id);
    EXPECT_EQ(server().requests()[0].header("traceparent"), forma::telemetry::to_traceparent(spans[0].context));
}

TEST_F(telemetry_export, a_provider_error_is_an_error_span_at_both_levels) {
    server().enqueue(scripted_reply::error(400, "invalid_request_error", "Bad request."));
    auto agent = agent_with(memory, false);
    EXPECT_THROW(run(agent->run("Hello")), forma::http_error);
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    for (const auto& span : spans) {
        EXPECT_EQ(span.status, forma::telemetry::status_code::error) << span.name;
        EXPECT_EQ(text(span, attr::error_type), "400") << span.name;
    }
}

TEST_F(telemetry_export, without_chat_spans_the_server_gets_the_agents_span_as_its_parent) {
    auto agent = agent_with(memory, false, false);
    EXPECT_EQ(run(agent->run("Hello")).text(), "You said: Hello");
    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].name, "invoke_agent assistant");
    EXPECT_EQ(server().requests()[0].header("traceparent"), forma::telemetry::to_traceparent(spans[0].context));
}

TEST_F(telemetry_export, a_client_without_a_parent_records_nothing_and_sends_no_traceparent) {
    forma::openai::chat_client client(io.get_executor(), options_for(server()));
    run(client.get_response(loopback::ask("Hello"), {}));
    EXPECT_EQ(server().requests()[0].header("traceparent"), "");
}

// Every byte the receiver got, headers and bodies, as one text.
std::string everything(const std::vector<forma::testing::received_request>& requests) {
    std::string all;
    for (const auto& r : requests) {
        all += r.method + " " + r.target + "\n";
        for (const auto& [name, value] : r.headers) all += name + ": " + value + "\n";
        all += r.body + "\n";
    }
    return all;
}

bool is_decimal(const json::value& v) {
    return v.is_string() && std::regex_match(std::string(v.as_string()), std::regex("[0-9]+"));
}

TEST_F(telemetry_export, otlp_export_follows_the_json_mapping_and_never_carries_the_api_key) {
    auto exporter = std::make_shared<forma::telemetry::otlp_http_exporter>(
        io.get_executor(), forma::telemetry::otlp_http_exporter_options{
                               .base_url = endpoint_of(receiver()),
                               .resource = {{"service.name", std::string("forma-test")}}});
    auto agent = agent_with(exporter, true);
    // A provider that quotes the key in its error message, then a normal answer.
    server().enqueue(scripted_reply::error(401, "invalid_request_error",
                                           "Incorrect API key provided: " + std::string(api_key) + "."));
    EXPECT_THROW(run(agent->run("Hello")), forma::http_error);
    EXPECT_EQ(run(agent->run("Hello")).text(), "You said: Hello");
    run([](auto e) -> boost::asio::awaitable<int> { co_await e->flush(); co_return 0; }(exporter));

    EXPECT_EQ(exporter->exported_spans(), 4u);
    EXPECT_EQ(exporter->failed_exports(), 0u) << exporter->last_error();
    const std::string all = everything(receiver().requests());
    EXPECT_EQ(all.find(api_key), std::string::npos) << "the API key reached the collector";
    EXPECT_NE(all.find("[redacted]"), std::string::npos); // the error message itself was exported
    for (const auto& r : receiver().requests()) {
        EXPECT_EQ(r.method, "POST");
        EXPECT_EQ(r.header("content-type"), "application/json");
    }

    const auto traces = received("/v1/traces");
    ASSERT_FALSE(traces.empty());
    std::size_t spans_seen = 0;
    for (const auto& doc : traces) {
        const auto& rs = doc.at("resourceSpans").at(0);
        bool service_named = false;
        for (const auto& a : rs.at("resource").at("attributes").as_array())
            if (a.at("key") == "service.name") service_named = a.at("value").at("stringValue") == "forma-test";
        EXPECT_TRUE(service_named);
        for (const auto& span : rs.at("scopeSpans").at(0).at("spans").as_array()) {
            ++spans_seen;
            EXPECT_TRUE(std::regex_match(std::string(span.at("traceId").as_string()), std::regex("[0-9a-f]{32}")));
            EXPECT_TRUE(std::regex_match(std::string(span.at("spanId").as_string()), std::regex("[0-9a-f]{16}")));
            if (span.as_object().contains("parentSpanId")) {
                EXPECT_TRUE(
                    std::regex_match(std::string(span.at("parentSpanId").as_string()), std::regex("[0-9a-f]{16}")));
            }
            EXPECT_EQ(span.at("kind"), 3);
            EXPECT_TRUE(is_decimal(span.at("startTimeUnixNano")));
            EXPECT_TRUE(is_decimal(span.at("endTimeUnixNano")));
            EXPECT_TRUE(span.at("status").at("code").is_int64());
            for (const auto& a : span.at("attributes").as_array()) {
                const auto& value = a.at("value").as_object();
                ASSERT_EQ(value.size(), 1u);
                if (value.contains("intValue")) {
                    EXPECT_TRUE(is_decimal(value.at("intValue"))) << a.at("key");
                }
            }
        }
    }
    EXPECT_EQ(spans_seen, 4u);

    const auto metrics = received("/v1/metrics");
    ASSERT_FALSE(metrics.empty());
    std::set<std::string> names;
    for (const auto& m : metrics.back().at("resourceMetrics").at(0).at("scopeMetrics").at(0).at("metrics").as_array()) {
        names.insert(std::string(m.at("name").as_string()));
        EXPECT_EQ(m.at("histogram").at("aggregationTemporality"), 2);
        for (const auto& p : m.at("histogram").at("dataPoints").as_array()) {
            EXPECT_TRUE(is_decimal(p.at("count")));
            for (const auto& c : p.at("bucketCounts").as_array()) EXPECT_TRUE(is_decimal(c));
            EXPECT_EQ(p.at("bucketCounts").as_array().size(), p.at("explicitBounds").as_array().size() + 1);
        }
    }
    EXPECT_TRUE(names.contains("gen_ai.client.operation.duration"));
    EXPECT_TRUE(names.contains("gen_ai.client.token.usage"));
}

TEST_F(telemetry_export, an_unreachable_collector_fails_no_run) {
    unsigned short closed_port = 0;
    {
        forma::testing::model_server gone(io.get_executor(), {.tls = false});
        closed_port = gone.port();
    }
    auto exporter = std::make_shared<forma::telemetry::otlp_http_exporter>(
        io.get_executor(),
        forma::telemetry::otlp_http_exporter_options{.base_url = "http://127.0.0.1:" + std::to_string(closed_port)});
    auto agent = agent_with(exporter);
    EXPECT_EQ(run(agent->run("Hello")).text(), "You said: Hello");
    run([](auto e) -> boost::asio::awaitable<int> { co_await e->flush(); co_return 0; }(exporter));
    EXPECT_GE(exporter->failed_exports(), 1u);
    EXPECT_EQ(exporter->dropped_spans(), 2u);
    EXPECT_EQ(exporter->exported_spans(), 0u);
    EXPECT_FALSE(exporter->last_error().empty());
}

TEST_F(telemetry_export, a_full_queue_drops_and_counts_rather_than_blocking) {
    auto exporter = std::make_shared<forma::telemetry::otlp_http_exporter>(
        io.get_executor(), forma::telemetry::otlp_http_exporter_options{.base_url = endpoint_of(receiver()),
                                                                        .schedule_delay = std::chrono::seconds(60),
                                                                        .max_queue_size = 3});
    auto agent = agent_with(exporter);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(run(agent->run("Hello")).text(), "You said: Hello");
    EXPECT_EQ(exporter->dropped_spans(), 3u);
    run([](auto e) -> boost::asio::awaitable<int> { co_await e->flush(); co_return 0; }(exporter));
    EXPECT_EQ(exporter->exported_spans(), 3u);
}

TEST(otlp_http_exporter, a_bad_endpoint_is_an_error_at_construction) {
    boost::asio::io_context io;
    EXPECT_THROW(forma::telemetry::otlp_http_exporter(io.get_executor(), {.base_url = "ftp://collector"}), forma::error);
}

// The exporter on an io_context of its own: once the runs are over, its run() returns by
// itself (nothing left pending) after the batch has reached the collector.
TEST(otlp_http_exporter, leaves_nothing_pending_once_the_batch_is_sent) {
    boost::asio::io_context network; // model server, receiver, client
    auto guard = boost::asio::make_work_guard(network);
    std::thread network_thread([&] { network.run(); });

    forma::testing::model_server model(network.get_executor(), {.tls = false});
    forma::testing::model_server collector(network.get_executor(), {.tls = false});
    collector.set_handler([](const forma::testing::received_request&) { return scripted_reply::json("{}"); });

    boost::asio::io_context exporting;
    auto exporter = std::make_shared<forma::telemetry::otlp_http_exporter>(
        exporting.get_executor(),
        forma::telemetry::otlp_http_exporter_options{.base_url = "http://127.0.0.1:" + std::to_string(collector.port()),
                                                     .schedule_delay = std::chrono::milliseconds(20)});
    std::shared_ptr<forma::chat_client> client =
        forma::chat_client_builder(std::make_shared<forma::openai::chat_client>(
                                       network.get_executor(),
                                       forma::openai::client_options{.base_url = model.base_url(), .model = "m"}))
            .use_telemetry()
            .build();
    auto inner = std::make_unique<forma::chat_client_agent>(*client);
    auto agent = forma::agent_builder(*inner).use_telemetry({.exporter = exporter}).build();
    auto answer = boost::asio::co_spawn(network, agent->run("Hello"), boost::asio::use_future);
    EXPECT_EQ(answer.get().text(), "You said: Hello");
    // The client goes on the thread that runs its executor.
    boost::asio::post(network, boost::asio::use_future([&] {
        agent.reset();
        inner.reset();
        client.reset();
    })).get();
    const auto started = std::chrono::steady_clock::now();
    exporting.run_for(std::chrono::seconds(20));
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10)) << "the exporter kept its io_context";
    EXPECT_EQ(exporter->exported_spans(), 2u) << exporter->last_error();

    boost::asio::post(network, [&] {
        model.stop();
        collector.stop();
    });
    guard.reset();
    network_thread.join();
}

} // namespace
