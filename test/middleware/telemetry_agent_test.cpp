// telemetry_agent over a scripted chat client: the invoke_agent span, its attributes, errors,
// streams, sensitive data, metrics, and that telemetry never changes a run.

#include <forma/agent/chat_client_agent.hpp>
#include <forma/middleware/agent_builder.hpp>
#include <forma/middleware/structured_output_agent.hpp>
#include <forma/middleware/telemetry_agent.hpp>
#include <forma/net/http_error.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>

#include "../agent/agent_test_support.hpp"
#include "../telemetry/span_reading.hpp"

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using namespace agent_test;
using namespace span_reading;
using forma::chat_client_agent;
using forma::testing::scripted_chat_client;
namespace attr = forma::telemetry::gen_ai::attr;
namespace json = boost::json;

forma::agent_response<> scripted_answer(std::string text) {
    forma::agent_response<> r(forma::chat_message(forma::chat_role::assistant(), std::move(text)));
    r.response_id = "resp-1";
    r.finish_reason = forma::finish_reason::stop();
    r.usage = forma::usage_details{.input_token_count = 12, .output_token_count = 5};
    r.additional_properties["model"] = "gpt-4o-mini-2024-07-18";
    return r;
}

std::vector<forma::agent_response_update> scripted_updates() {
    std::vector<forma::agent_response_update> updates{text_update("Hel", "m1"), text_update("lo", "m1")};
    updates[0].response_id = "resp-2";
    updates[0].additional_properties["model"] = "gpt-4o-mini-2024-07-18";
    forma::agent_response_update last(forma::chat_role::assistant(),
                                      std::vector<forma::content>{forma::usage_content(
                                          {.input_token_count = 7, .output_token_count = 2})});
    last.finish_reason = forma::finish_reason::stop();
    updates.push_back(last);
    return updates;
}

class telemetry : public ::testing::Test {
protected:
    std::shared_ptr<forma::agent> build(forma::telemetry_options options = {}) {
        if (!options.exporter) options.exporter = memory;
        if (options.provider_name.empty()) options.provider_name = "openai";
        if (!options.sensitive_data) options.sensitive_data = false;
        return forma::agent_builder(inner).use_telemetry(std::move(options)).build();
    }

    forma::telemetry::span_data only_span() {
        auto spans = memory->spans();
        EXPECT_EQ(spans.size(), 1u);
        return spans.empty() ? forma::telemetry::span_data{} : spans.front();
    }

    boost::asio::io_context io;
    scripted_chat_client client{io.get_executor()};
    chat_client_agent inner{client,
                            {.name = "assistant",
                             .description = "Answers briefly.",
                             .instructions = "Be brief.",
                             .chat_options = {.model = "gpt-4o-mini",
                                              .temperature = 0.25,
                                              .top_p = 0.5,
                                              .max_output_tokens = 100,
                                              .stop_sequences = {"END"},
                                              .seed = 7}}};
    std::shared_ptr<forma::telemetry::in_memory_exporter> memory =
        std::make_shared<forma::telemetry::in_memory_exporter>();
};

TEST_F(telemetry, a_run_is_an_invoke_agent_client_span_with_the_gen_ai_attributes) {
    client.add_response(scripted_answer("Hi!"));
    auto agent = build();
    auto session = agent->create_session();
    const auto response = run_to_completion(io, agent->run("Hello", session));
    EXPECT_EQ(response.text(), "Hi!");

    const auto span = only_span();
    EXPECT_EQ(span.name, "invoke_agent assistant");
    EXPECT_EQ(span.kind, forma::telemetry::span_kind::client);
    EXPECT_TRUE(span.context.valid());
    EXPECT_FALSE(span.parent_span_id);
    EXPECT_EQ(span.status, forma::telemetry::status_code::unset);
    EXPECT_LE(span.start_time, span.end_time);
    EXPECT_EQ(text(span, attr::operation_name), "invoke_agent");
    EXPECT_EQ(text(span, attr::provider_name), "openai");
    EXPECT_EQ(text(span, attr::agent_id), std::string(inner.id()));
    EXPECT_EQ(text(span, attr::agent_name), "assistant");
    EXPECT_EQ(text(span, attr::agent_description), "Answers briefly.");
    EXPECT_EQ(text(span, attr::conversation_id), session->id.str());
    EXPECT_EQ(text(span, attr::request_model), "gpt-4o-mini");
    EXPECT_EQ(attribute<double>(span, attr::request_temperature), 0.25);
    EXPECT_EQ(attribute<double>(span, attr::request_top_p), 0.5);
    EXPECT_EQ(attribute<std::int64_t>(span, attr::request_max_tokens), 100);
    EXPECT_EQ(attribute<std::int64_t>(span, attr::request_seed), 7);
    EXPECT_EQ(attribute<std::vector<std::string>>(span, attr::request_stop_sequences),
              std::vector<std::string>{"END"});
    EXPECT_FALSE(has(span, attr::request_stream)); // set only for streams
    EXPECT_EQ(text(span, attr::output_type), "text");
    EXPECT_EQ(text(span, attr::response_id), "resp-1");
    EXPECT_EQ(text(span, attr::response_model), "gpt-4o-mini-2024-07-18");
    EXPECT_EQ(attribute<std::vector<std::string>>(span, attr::response_finish_reasons),
              std::vector<std::string>{"stop"});
    EXPECT_EQ(attribute<std::int64_t>(span, attr::usage_input_tokens), 12);
    EXPECT_EQ(attribute<std::int64_t>(span, attr::usage_output_tokens), 5);
    EXPECT_FALSE(has(span, attr::error_type));
    // No server behind a scripted client: no server attributes.
    EXPECT_FALSE(has(span, attr::server_address));
    // Sensitive data is off: no contents.
    EXPECT_FALSE(has(span, attr::input_messages));
    EXPECT_FALSE(has(span, attr::output_messages));
    EXPECT_FALSE(has(span, attr::system_instructions));
}

TEST_F(telemetry, the_chat_call_gets_the_run_span_as_its_parent) {
    client.add_response(scripted_answer("Hi!"));
    auto agent = build();
    run_to_completion(io, agent->run("Hello"));
    const auto span = only_span();
    ASSERT_EQ(client.requests().size(), 1u);
    const auto& carried = client.requests()[0].context.trace;
    ASSERT_TRUE(carried);
    EXPECT_EQ(carried->context, span.context);
    EXPECT_EQ(carried->exporter, memory);
    EXPECT_FALSE(carried->sensitive_data);
}

TEST_F(telemetry, a_typed_run_reports_json_output) {
    client.add_text_response(R"({"name":"Ann","age":30,"occupation":null})");
    auto agent = build();
    EXPECT_EQ(run_to_completion(io, agent->run<person>("Ann is 30.")).result().name, "Ann");
    EXPECT_EQ(text(only_span(), attr::output_type), "json");
}

TEST_F(telemetry, sensitive_data_records_the_messages_in_the_conventions_shape) {
    client.add_response(scripted_answer("Hi!"));
    auto agent = build({.sensitive_data = true});
    run_to_completion(io, agent->run("Hello"));
    const auto span = only_span();
    ASSERT_TRUE(has(span, attr::input_messages));
    EXPECT_EQ(json::parse(*text(span, attr::input_messages)),
              json::parse(R"([{"role":"user","parts":[{"type":"text","content":"Hello"}]}])"));
    EXPECT_EQ(json::parse(*text(span, attr::output_messages)),
              json::parse(R"([{"role":"assistant","parts":[{"type":"text","content":"Hi!"}],
                               "name":"assistant","finish_reason":"stop"}])"));
    EXPECT_EQ(json::parse(*text(span, attr::system_instructions)),
              json::parse(R"([{"type":"text","content":"Be brief."}])"));
    EXPECT_TRUE(client.requests()[0].context.trace->sensitive_data);
}

TEST_F(telemetry, the_environment_variable_turns_sensitive_data_on_unless_the_option_says) {
    ::unsetenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
    auto as_agent = [this](std::optional<bool> option) {
        return forma::telemetry_agent(std::shared_ptr<forma::agent>(&inner, [](forma::agent*) {}),
                                      {.exporter = memory, .sensitive_data = option});
    };
    EXPECT_FALSE(as_agent(std::nullopt).sensitive_data());
    ::setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true", 1);
    EXPECT_TRUE(as_agent(std::nullopt).sensitive_data());
    EXPECT_FALSE(as_agent(false).sensitive_data());
    ::setenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "yes", 1);
    EXPECT_FALSE(as_agent(std::nullopt).sensitive_data());
    ::unsetenv("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
}

TEST_F(telemetry, a_failed_run_is_an_error_span_and_the_error_passes_unchanged) {
    client.add_error(std::make_exception_ptr(forma::http_error(429, "rate_limit_exceeded", "Slow down")));
    auto agent = build();
    try {
        run_to_completion(io, agent->run("Hello"));
        FAIL() << "the run should fail";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 429);
        EXPECT_EQ(e.message(), "Slow down");
    }
    const auto span = only_span();
    EXPECT_EQ(span.status, forma::telemetry::status_code::error);
    EXPECT_NE(span.status_message.find("Slow down"), std::string::npos) << span.status_message;
    EXPECT_EQ(text(span, attr::error_type), "429");
    const auto duration = histogram(memory->metrics(), "gen_ai.client.operation.duration");
    EXPECT_TRUE(point_with(duration, attr::error_type, "429"));
}

TEST_F(telemetry, error_type_names_the_exception_when_it_is_no_http_or_transport_error) {
    client.add_error(std::make_exception_ptr(std::invalid_argument("bad")));
    auto agent = build();
    EXPECT_THROW(run_to_completion(io, agent->run("Hello")), std::invalid_argument);
    EXPECT_EQ(text(only_span(), attr::error_type), "std::invalid_argument");
}

TEST_F(telemetry, a_run_records_duration_and_token_usage_histograms) {
    client.add_response(scripted_answer("Hi!"));
    auto agent = build();
    run_to_completion(io, agent->run("Hello"));
    const auto metrics = memory->metrics();
    const auto duration = histogram(metrics, "gen_ai.client.operation.duration");
    EXPECT_EQ(duration.unit, "s");
    EXPECT_EQ(duration.bounds, std::vector<double>(forma::telemetry::gen_ai::duration_buckets.begin(),
                                                   forma::telemetry::gen_ai::duration_buckets.end()));
    ASSERT_EQ(duration.points.size(), 1u);
    const auto& d = duration.points[0];
    EXPECT_EQ(d.count, 1u);
    EXPECT_EQ(forma::telemetry::find(d.attributes, attr::operation_name)->index(), 3u);
    EXPECT_TRUE(point_with(duration, attr::request_model, "gpt-4o-mini"));
    EXPECT_TRUE(point_with(duration, attr::response_model, "gpt-4o-mini-2024-07-18"));
    EXPECT_TRUE(point_with(duration, attr::provider_name, "openai"));
    EXPECT_FALSE(forma::telemetry::find(d.attributes, attr::error_type));

    const auto tokens = histogram(metrics, "gen_ai.client.token.usage");
    EXPECT_EQ(tokens.unit, "{token}");
    const auto* input = point_with(tokens, attr::token_type, "input");
    const auto* output = point_with(tokens, attr::token_type, "output");
    ASSERT_TRUE(input && output);
    EXPECT_EQ(input->sum, 12);
    EXPECT_EQ(output->sum, 5);
    EXPECT_EQ(input->bucket_counts[2], 1u); // (4, 16]
    // Not a stream: no time to first chunk.
    for (const auto& m : metrics) EXPECT_NE(m.name, "gen_ai.client.operation.time_to_first_chunk");
}

TEST_F(telemetry, a_stream_passes_unchanged_and_records_time_to_first_chunk) {
    client.add_updates(scripted_updates());
    auto agent = build();
    const auto updates = run_to_completion(io, drain(agent->run_streaming("Hello")));
    client.add_updates(scripted_updates());
    const auto plain = run_to_completion(io, drain(inner.run_streaming("Hello")));
    ASSERT_EQ(updates.size(), plain.size());
    for (std::size_t i = 0; i < updates.size(); ++i) {
        EXPECT_EQ(updates[i].text(), plain[i].text());
        EXPECT_EQ(updates[i].contents, plain[i].contents);
    }

    const auto span = only_span();
    EXPECT_EQ(attribute<bool>(span, attr::request_stream), true);
    EXPECT_EQ(text(span, attr::response_id), "resp-2");
    EXPECT_EQ(text(span, attr::response_model), "gpt-4o-mini-2024-07-18");
    EXPECT_EQ(attribute<std::int64_t>(span, attr::usage_input_tokens), 7);
    EXPECT_EQ(attribute<std::int64_t>(span, attr::usage_output_tokens), 2);
    const auto first_chunk = attribute<double>(span, attr::response_time_to_first_chunk);
    ASSERT_TRUE(first_chunk);
    EXPECT_GE(*first_chunk, 0.0);
    EXPECT_LE(*first_chunk, std::chrono::duration<double>(span.end_time - span.start_time).count() + 1e-6);
    const auto ttfc = histogram(memory->metrics(), "gen_ai.client.operation.time_to_first_chunk");
    ASSERT_EQ(ttfc.points.size(), 1u);
    EXPECT_EQ(ttfc.points[0].count, 1u);
}

TEST_F(telemetry, a_stream_that_fails_midway_is_an_error_span_after_its_updates) {
    client.add_updates({text_update("Hel", "m1")}, std::make_exception_ptr(std::runtime_error("connection lost")));
    auto agent = build();
    std::vector<std::string> seen;
    EXPECT_THROW(run_to_completion(io,
                                   [&]() -> boost::asio::awaitable<int> {
                                       auto stream = agent->run_streaming("Hello");
                                       while (auto u = co_await stream.next()) seen.push_back(u->text());
                                       co_return 0;
                                   }()),
                 std::runtime_error);
    EXPECT_EQ(seen, std::vector<std::string>{"Hel"});
    const auto span = only_span();
    EXPECT_EQ(span.status, forma::telemetry::status_code::error);
    EXPECT_EQ(text(span, attr::error_type), "std::runtime_error");
    EXPECT_TRUE(has(span, attr::response_time_to_first_chunk));
}

TEST_F(telemetry, a_stream_left_early_ends_its_span_without_error) {
    client.add_updates(scripted_updates());
    auto agent = build();
    run_to_completion(io, [&]() -> boost::asio::awaitable<int> {
        auto stream = agent->run_streaming("Hello");
        co_await stream.next();
        co_return 0;
    }());
    EXPECT_EQ(client.live_streams(), 0);
    const auto span = only_span();
    EXPECT_EQ(span.status, forma::telemetry::status_code::unset);
    EXPECT_EQ(text(span, attr::response_id), "resp-2");
}

TEST_F(telemetry, a_stream_never_read_records_nothing) {
    auto agent = build();
    { auto stream = agent->run_streaming("Hello"); }
    EXPECT_TRUE(memory->spans().empty());
}

TEST_F(telemetry, nested_telemetry_agents_make_one_trace) {
    client.add_response(scripted_answer("Hi!"));
    auto agent = forma::agent_builder(inner)
                     .use_telemetry({.exporter = memory, .sensitive_data = false})
                     .use_telemetry({.exporter = memory, .sensitive_data = false})
                     .build();
    run_to_completion(io, agent->run("Hello"));
    const auto spans = memory->spans(); // inner ends first
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].context.trace_id, spans[1].context.trace_id);
    EXPECT_EQ(spans[0].parent_span_id, spans[1].context.span_id);
    EXPECT_FALSE(spans[1].parent_span_id);
    EXPECT_EQ(client.requests()[0].context.trace->context, spans[0].context);
}

TEST_F(telemetry, a_run_context_from_a_received_traceparent_makes_the_run_its_child_streamed_or_not) {
    const auto caller = forma::telemetry::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    ASSERT_TRUE(caller);
    forma::agent_run_options options;
    options.context.trace = forma::telemetry::trace_parent{.exporter = memory, .context = *caller};
    auto agent = build();
    client.add_response(scripted_answer("Hi!"));
    run_to_completion(io, agent->run("Hello", nullptr, options));
    client.add_response(scripted_answer("Hi!"));
    run_to_completion(io, drain(agent->run_streaming("Hello", nullptr, options)));

    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 2u);
    ASSERT_EQ(client.requests().size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(spans[i].context.trace_id, caller->trace_id) << i;
        EXPECT_EQ(spans[i].parent_span_id, caller->span_id) << i;
        // The chat call below is the run span's child, not the caller's.
        ASSERT_TRUE(client.requests()[i].context.trace) << i;
        EXPECT_EQ(client.requests()[i].context.trace->context, spans[i].context) << i;
    }
    EXPECT_TRUE(client.requests()[1].streaming);
}

TEST_F(telemetry, the_structured_output_conversion_belongs_to_the_run_trace) {
    scripted_chat_client converter(io.get_executor());
    client.add_text_response("Ann is thirty.");
    converter.add_text_response(R"({"name":"Ann","age":30,"occupation":null})");
    auto agent = forma::agent_builder(inner)
                     .use_telemetry({.exporter = memory, .sensitive_data = false})
                     .use_structured_output(converter)
                     .build();
    EXPECT_EQ(run_to_completion(io, agent->run<person>("Who is Ann?")).result().age, 30);
    const auto span = only_span();
    ASSERT_EQ(converter.requests().size(), 1u);
    ASSERT_TRUE(converter.requests()[0].context.trace);
    EXPECT_EQ(converter.requests()[0].context.trace->context, span.context);
}

// An exporter that fails at everything.
class failing_exporter final : public forma::telemetry::exporter {
public:
    void export_span(forma::telemetry::span_data) override { throw std::runtime_error("exporter down"); }

protected:
    void on_metrics_recorded() override { throw std::runtime_error("exporter down"); }
};

TEST_F(telemetry, a_failing_exporter_fails_no_run) {
    client.add_response(scripted_answer("Hi!"));
    client.add_updates(scripted_updates());
    auto agent = build({.exporter = std::make_shared<failing_exporter>()});
    EXPECT_EQ(run_to_completion(io, agent->run("Hello")).text(), "Hi!");
    EXPECT_EQ(run_to_completion(io, drain(agent->run_streaming("Hello"))).size(), 3u);
}

TEST_F(telemetry, use_telemetry_needs_an_exporter) {
    forma::agent_builder builder(inner);
    EXPECT_THROW(builder.use_telemetry({}), forma::error);
    EXPECT_THROW(forma::telemetry_agent(std::shared_ptr<forma::agent>(&inner, [](forma::agent*) {}), {}),
                 forma::error);
}

} // namespace
