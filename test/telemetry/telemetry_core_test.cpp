// Span contexts, histograms, the in-memory exporter and the OTLP/JSON encoding.

#include <forma/chat/tool_span.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/telemetry/otlp_json.hpp>
#include <forma/telemetry/span_context.hpp>

#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <set>

namespace {

using namespace forma::telemetry;
namespace json = boost::json;

TEST(span_context, made_ids_are_valid_distinct_and_hex) {
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        const span_context c{.trace_id = make_trace_id(), .span_id = make_span_id()};
        ASSERT_TRUE(c.valid());
        const std::string trace = to_hex(c.trace_id), span = to_hex(c.span_id);
        ASSERT_TRUE(std::regex_match(trace, std::regex("[0-9a-f]{32}"))) << trace;
        ASSERT_TRUE(std::regex_match(span, std::regex("[0-9a-f]{16}"))) << span;
        seen.insert(trace);
    }
    EXPECT_EQ(seen.size(), 1000u);
    EXPECT_FALSE(span_context{}.valid());
}

TEST(span_context, hex_spells_bytes_in_order) {
    trace_id t{};
    t[0] = 0x0a;
    t[15] = 0xf0;
    EXPECT_EQ(to_hex(t), "0a0000000000000000000000000000f0");
    span_id s{0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    EXPECT_EQ(to_hex(s), "0123456789abcdef");
}

TEST(span_context, traceparent_round_trips) {
    const span_context c{.trace_id = make_trace_id(), .span_id = make_span_id(), .sampled = true};
    const std::string header = to_traceparent(c);
    EXPECT_EQ(header, "00-" + to_hex(c.trace_id) + "-" + to_hex(c.span_id) + "-01");
    EXPECT_EQ(parse_traceparent(header), c);
    span_context unsampled = c;
    unsampled.sampled = false;
    EXPECT_EQ(parse_traceparent(to_traceparent(unsampled)), unsampled);
}

TEST(span_context, malformed_traceparent_is_rejected) {
    const std::string good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    ASSERT_TRUE(parse_traceparent(good));
    for (const std::string& bad : {
             std::string("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"), // version
             std::string("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"), // uppercase
             std::string("00-00000000000000000000000000000000-00f067aa0ba902b7-01"), // zero trace
             std::string("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"), // zero span
             std::string("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"),    // short
             std::string("00-4bf92f3577b34da6a3ce929d0e0e4736x00f067aa0ba902b7-01"), // separator
             std::string("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01"), // digit
         })
        EXPECT_FALSE(parse_traceparent(bad)) << bad;
}

attribute_list with_model(std::string model) { return {{"gen_ai.request.model", std::move(model)}}; }

TEST(metric_store, values_fall_in_upper_inclusive_buckets) {
    metric_store store;
    for (double v : {0.005, 0.01, 0.011, 81.92, 100.0}) store.record(gen_ai::operation_duration, v, with_model("m"));
    const auto metrics = store.snapshot();
    ASSERT_EQ(metrics.size(), 1u);
    const auto& h = metrics[0];
    EXPECT_EQ(h.name, "gen_ai.client.operation.duration");
    EXPECT_EQ(h.unit, "s");
    ASSERT_EQ(h.bounds.size(), 14u);
    ASSERT_EQ(h.points.size(), 1u);
    const auto& p = h.points[0];
    ASSERT_EQ(p.bucket_counts.size(), 15u);
    EXPECT_EQ(p.bucket_counts[0], 2u);  // 0.005 and 0.01: (-inf, 0.01]
    EXPECT_EQ(p.bucket_counts[1], 1u);  // 0.011: (0.01, 0.02]
    EXPECT_EQ(p.bucket_counts[13], 1u); // 81.92: (40.96, 81.92]
    EXPECT_EQ(p.bucket_counts[14], 1u); // 100: (81.92, +inf)
    EXPECT_EQ(p.count, 5u);
    EXPECT_DOUBLE_EQ(p.sum, 0.005 + 0.01 + 0.011 + 81.92 + 100.0);
    EXPECT_DOUBLE_EQ(p.min, 0.005);
    EXPECT_DOUBLE_EQ(p.max, 100.0);
}

TEST(metric_store, attribute_sets_are_kept_apart_whatever_their_order) {
    metric_store store;
    const std::uint64_t before = store.version();
    store.record(gen_ai::token_usage, 10, {{"a", std::string("x")}, {"b", std::int64_t{1}}});
    store.record(gen_ai::token_usage, 20, {{"b", std::int64_t{1}}, {"a", std::string("x")}});
    store.record(gen_ai::token_usage, 30, {{"a", std::string("x")}, {"b", std::int64_t{2}}});
    store.record(gen_ai::token_usage, 40, {{"a", std::string("x1")}});
    EXPECT_EQ(store.version(), before + 4);
    const auto metrics = store.snapshot();
    ASSERT_EQ(metrics.size(), 1u);
    ASSERT_EQ(metrics[0].points.size(), 3u);
    EXPECT_EQ(metrics[0].points[0].count, 2u);
    EXPECT_DOUBLE_EQ(metrics[0].points[0].sum, 30);
    EXPECT_EQ(metrics[0].points[1].count, 1u);
    EXPECT_EQ(metrics[0].points[2].count, 1u);
}

TEST(metric_store, measurements_sharing_attributes_land_in_the_points_of_their_whole_sets) {
    metric_store store;
    const attribute model{"m", std::string("gpt")}, input{"t", std::string("input")}, output{"t", std::string("output")};
    const attribute* common[] = {&model};
    const measurement two[] = {{.instrument = &gen_ai::token_usage, .value = 3, .extra = &input},
                               {.instrument = &gen_ai::token_usage, .value = 5, .extra = &output}};
    store.record(common, two);
    store.record(common, two);
    // The same whole set, split the other way or listed whole, is the same point.
    const attribute* other_common[] = {&input};
    const attribute* model_as_extra = &model;
    const measurement one[] = {{.instrument = &gen_ai::token_usage, .value = 7, .extra = model_as_extra}};
    store.record(other_common, one);
    store.record(gen_ai::token_usage, 11, {{"t", std::string("output")}, {"m", std::string("gpt")}});

    const auto metrics = store.snapshot();
    ASSERT_EQ(metrics.size(), 1u);
    ASSERT_EQ(metrics[0].points.size(), 2u);
    EXPECT_EQ(metrics[0].points[0].count, 3u); // input: 3, 3, 7
    EXPECT_DOUBLE_EQ(metrics[0].points[0].sum, 13);
    EXPECT_EQ(metrics[0].points[1].count, 3u); // output: 5, 5, 11
    EXPECT_DOUBLE_EQ(metrics[0].points[1].min, 5);
    EXPECT_DOUBLE_EQ(metrics[0].points[1].max, 11);
    EXPECT_EQ(metrics[0].points[0].attributes, (attribute_list{model, input}));
}

TEST(metric_store, a_measurement_without_its_extra_attribute_is_another_point) {
    metric_store store;
    const attribute model{"m", std::string("gpt")}, error{"error.type", std::string("500")};
    const attribute* common[] = {&model};
    const measurement ok[] = {{.instrument = &gen_ai::operation_duration, .value = 1}};
    const measurement failed[] = {{.instrument = &gen_ai::operation_duration, .value = 2, .extra = &error}};
    store.record(common, ok);
    store.record(common, failed);
    store.record(common, ok);
    const auto points = store.snapshot().at(0).points;
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].count, 2u);
    EXPECT_EQ(points[1].count, 1u);
    EXPECT_EQ(points[1].attributes.size(), 2u);
}

TEST(metric_store, zero_and_negative_zero_are_one_attribute_value) {
    metric_store store;
    store.record(gen_ai::operation_duration, 1, {{"temperature", 0.0}});
    store.record(gen_ai::operation_duration, 1, {{"temperature", -0.0}});
    EXPECT_EQ(store.snapshot().at(0).points.size(), 1u);
}

TEST(attribute_key, a_constant_and_an_owned_name_are_equal_and_hash_alike) {
    const attribute_key constant = "gen_ai.request.model"; // consteval: refers to the literal
    const attribute_key owned = std::string("gen_ai.request.model");
    EXPECT_EQ(constant, owned);
    EXPECT_EQ(constant.hash(), owned.hash());
    EXPECT_NE(constant.hash(), attribute_key("gen_ai.response.model").hash());
    EXPECT_EQ(hash_text("abcdefgh12"), hash_text(std::string("abcdefgh12")));
    EXPECT_NE(hash_text("abcdefgh12"), hash_text("abcdefgh13"));
}

TEST(attribute_key, an_owned_name_outlives_the_string_it_was_made_from_and_is_shared_by_copies) {
    std::optional<attribute_key> first;
    {
        std::string name = "custom.";
        name += "attribute";
        first.emplace(name);
    }
    attribute_key copy = *first;
    attribute_key moved = std::move(*first);
    first.reset();
    EXPECT_EQ(copy.view(), "custom.attribute");
    EXPECT_EQ(moved.view(), "custom.attribute");
    copy = attribute_key("other"); // releases one reference; `moved` keeps the name
    EXPECT_EQ(moved.view(), "custom.attribute");
    EXPECT_EQ(copy.view(), "other");
}

TEST(in_memory_exporter, keeps_spans_up_to_its_capacity_and_counts_the_rest) {
    in_memory_exporter memory(2);
    for (int i = 0; i < 3; ++i) memory.export_span({.name = "s" + std::to_string(i)});
    EXPECT_EQ(memory.spans().size(), 2u);
    EXPECT_EQ(memory.dropped_spans(), 1u);
    EXPECT_EQ(memory.find_span("s1")->name, "s1");
    EXPECT_FALSE(memory.find_span("s2"));
    EXPECT_EQ(memory.take_spans().size(), 2u);
    EXPECT_TRUE(memory.spans().empty());
}

span_data sample_span() {
    span_data s;
    s.name = "chat gpt-4o";
    s.kind = span_kind::client;
    s.context = {.trace_id = make_trace_id(), .span_id = make_span_id()};
    s.parent_span_id = make_span_id();
    s.start_time = std::chrono::system_clock::time_point(std::chrono::nanoseconds(1'700'000'000'123'456'789));
    s.end_time = s.start_time + std::chrono::milliseconds(250);
    s.attributes = {{"gen_ai.operation.name", std::string("chat")},
                    {"gen_ai.usage.input_tokens", std::int64_t{9'007'199'254'740'993}}, // > 2^53
                    {"gen_ai.request.temperature", 0.5},
                    {"gen_ai.request.stream", true},
                    {"gen_ai.response.finish_reasons", std::vector<std::string>{"stop"}}};
    s.status = status_code::error;
    s.status_message = "timed out";
    return s;
}

TEST(otlp_json, spans_follow_the_otlp_json_mapping) {
    const span_data s = sample_span();
    const json::value doc = json::parse(otlp_traces_json(std::span(&s, 1), {{"service.name", std::string("svc")}}));
    const auto& rs = doc.at("resourceSpans").at(0);
    EXPECT_EQ(rs.at("resource").at("attributes").at(0).at("key"), "service.name");
    EXPECT_EQ(rs.at("resource").at("attributes").at(0).at("value").at("stringValue"), "svc");
    const auto& ss = rs.at("scopeSpans").at(0);
    EXPECT_EQ(ss.at("scope").at("name"), "forma");
    const auto& span = ss.at("spans").at(0).as_object();
    EXPECT_EQ(span.at("traceId"), json::value(to_hex(s.context.trace_id)));
    EXPECT_EQ(span.at("spanId"), json::value(to_hex(s.context.span_id)));
    EXPECT_EQ(span.at("parentSpanId"), json::value(to_hex(*s.parent_span_id)));
    EXPECT_EQ(span.at("kind"), 3); // SPAN_KIND_CLIENT, an integer
    EXPECT_EQ(span.at("startTimeUnixNano"), "1700000000123456789"); // a string: 64-bit
    EXPECT_EQ(span.at("endTimeUnixNano"), "1700000000373456789");
    EXPECT_EQ(span.at("status").at("code"), 2);
    EXPECT_EQ(span.at("status").at("message"), "timed out");
    const auto& attributes = span.at("attributes").as_array();
    ASSERT_EQ(attributes.size(), 5u);
    EXPECT_EQ(attributes[0].at("value").at("stringValue"), "chat");
    EXPECT_EQ(attributes[1].at("value").at("intValue"), "9007199254740993");
    EXPECT_EQ(attributes[2].at("value").at("doubleValue"), 0.5);
    EXPECT_EQ(attributes[3].at("value").at("boolValue"), true);
    EXPECT_EQ(attributes[4].at("value").at("arrayValue").at("values").at(0).at("stringValue"), "stop");
}

TEST(tool_span, records_a_call_with_content_only_when_sensitive) {
    auto memory = std::make_shared<in_memory_exporter>();
    const span_context parent{.trace_id = make_trace_id(), .span_id = make_span_id()};
    const tool_call_info info{.tool_name = "get_weather", .call_id = "c1", .tool_description = "Weather",
                              .arguments = R"({"city":"Oslo"})"};
    {
        tool_span quiet({.exporter = memory, .context = parent, .sensitive_data = false}, info);
        EXPECT_TRUE(quiet.recording());
        EXPECT_EQ(quiet.child().context.trace_id, parent.trace_id);
        quiet.end(json::value("sunny"));
    }
    tool_span({.exporter = memory, .context = parent, .sensitive_data = true}, info).end(json::value{{"t", 5}});
    tool_span({.exporter = memory, .context = parent}, info).fail("timeout", "too slow");
    { tool_span left({.exporter = memory, .context = parent}, info); } // ends when destroyed
    tool_span nothing({}, info);
    EXPECT_FALSE(nothing.recording());

    const auto spans = memory->spans();
    ASSERT_EQ(spans.size(), 4u);
    for (const span_data& s : spans) {
        EXPECT_EQ(s.name, "execute_tool get_weather");
        EXPECT_EQ(s.kind, span_kind::internal);
        EXPECT_EQ(s.parent_span_id, parent.span_id);
        EXPECT_EQ(s.context.trace_id, parent.trace_id);
        EXPECT_NE(s.context.span_id, parent.span_id);
        EXPECT_EQ(std::get<std::string>(*find(s.attributes, gen_ai::attr::operation_name)), "execute_tool");
        EXPECT_EQ(std::get<std::string>(*find(s.attributes, gen_ai::attr::tool_call_id)), "c1");
        EXPECT_EQ(std::get<std::string>(*find(s.attributes, gen_ai::attr::tool_type)), "function");
        EXPECT_EQ(std::get<std::string>(*find(s.attributes, gen_ai::attr::tool_description)), "Weather");
    }
    EXPECT_FALSE(find(spans[0].attributes, gen_ai::attr::tool_call_arguments));
    EXPECT_FALSE(find(spans[0].attributes, gen_ai::attr::tool_call_result));
    EXPECT_EQ(std::get<std::string>(*find(spans[1].attributes, gen_ai::attr::tool_call_arguments)), R"({"city":"Oslo"})");
    EXPECT_EQ(std::get<std::string>(*find(spans[1].attributes, gen_ai::attr::tool_call_result)), R"({"t":5})");
    EXPECT_EQ(spans[2].status, status_code::error);
    EXPECT_EQ(spans[2].status_message, "too slow");
    EXPECT_EQ(std::get<std::string>(*find(spans[2].attributes, gen_ai::attr::error_type)), "timeout");
    EXPECT_EQ(spans[3].status, status_code::unset);
    // In OTLP JSON the kind is SPAN_KIND_INTERNAL.
    const json::value doc = json::parse(otlp_traces_json(std::span(&spans[0], 1), {}));
    EXPECT_EQ(doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0).at("kind"), 1);
}

TEST(otlp_json, text_that_is_not_utf8_is_made_valid_not_passed_on) {
    span_data s = sample_span();
    s.name = "execute_tool caf\xE9";
    s.status_message = "failed: \xFF\xFE";
    s.attributes.push_back({std::string("gen_ai.tool.call.arguments"), std::string("{\"city\":\"Z\xFCrich\"}")});
    s.attributes.push_back({gen_ai::attr::response_finish_reasons, std::vector<std::string>{"st\xC3op"}});
    const std::string body = otlp_traces_json(std::span(&s, 1), {{"service.name", std::string("svc\x80")}});
    boost::system::error_code ec;
    const json::value doc = json::parse(body, ec); // Boost.JSON refuses invalid UTF-8
    ASSERT_FALSE(ec) << ec.message();
    const auto& span = doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0);
    EXPECT_EQ(span.at("name"), "execute_tool caf\uFFFD");
    EXPECT_EQ(span.at("status").at("message"), "failed: \uFFFD\uFFFD");
    const auto& attributes = span.at("attributes").as_array();
    EXPECT_EQ(attributes.at(attributes.size() - 2).at("value").at("stringValue"), "{\"city\":\"Z\uFFFDrich\"}");
}

TEST(otlp_json, events_follow_the_otlp_json_mapping) {
    span_data s = sample_span();
    EXPECT_FALSE(json::parse(otlp_traces_json(std::span(&s, 1), {}))
                     .at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0).as_object().contains("events"));
    s.events.push_back({.name = "forma.output.retry",
                        .time = s.start_time + std::chrono::milliseconds(100),
                        .attributes = {{"forma.output.error_count", std::int64_t{3}}}});
    const json::value doc = json::parse(otlp_traces_json(std::span(&s, 1), {}));
    const auto& event = doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0).at("events").at(0);
    EXPECT_EQ(event.at("name"), "forma.output.retry");
    EXPECT_EQ(event.at("timeUnixNano"), "1700000000223456789");
    EXPECT_EQ(event.at("attributes").at(0).at("key"), "forma.output.error_count");
    EXPECT_EQ(event.at("attributes").at(0).at("value").at("intValue"), "3");
}

TEST(otlp_json, a_root_span_has_no_parent_id) {
    span_data s = sample_span();
    s.parent_span_id.reset();
    const json::value doc = json::parse(otlp_traces_json(std::span(&s, 1), {}));
    EXPECT_FALSE(doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").at(0).as_object().contains(
        "parentSpanId"));
}

TEST(otlp_json, histograms_follow_the_otlp_json_mapping) {
    metric_store store;
    store.record(gen_ai::token_usage, 3, {{"gen_ai.token.type", std::string("input")}});
    store.record(gen_ai::token_usage, 300, {{"gen_ai.token.type", std::string("input")}});
    const auto metrics = store.snapshot();
    const json::value doc = json::parse(otlp_metrics_json(metrics, {}));
    const auto& metric = doc.at("resourceMetrics").at(0).at("scopeMetrics").at(0).at("metrics").at(0);
    EXPECT_EQ(metric.at("name"), "gen_ai.client.token.usage");
    EXPECT_EQ(metric.at("unit"), "{token}");
    const auto& histogram = metric.at("histogram");
    EXPECT_EQ(histogram.at("aggregationTemporality"), 2); // cumulative
    const auto& point = histogram.at("dataPoints").at(0);
    EXPECT_EQ(point.at("count"), "2");
    EXPECT_EQ(point.at("sum"), 303.0);
    EXPECT_EQ(point.at("min"), 3.0);
    EXPECT_EQ(point.at("max"), 300.0);
    const auto& counts = point.at("bucketCounts").as_array();
    ASSERT_EQ(counts.size(), 15u);
    EXPECT_EQ(counts[1], "1"); // (1, 4]
    EXPECT_EQ(counts[5], "1"); // (256, 1024]
    EXPECT_EQ(point.at("explicitBounds").as_array().size(), 14u);
    EXPECT_TRUE(point.at("startTimeUnixNano").is_string());
    EXPECT_TRUE(point.at("timeUnixNano").is_string());
}

} // namespace
