// The local model server's Responses API over real TLS on loopback: create (whole, streamed,
// schema-driven, tool calls, reasoning, incomplete), background runs (poll, resume across a
// dropped stream, cancel), stored responses and their faults.

#include <forma/testing/model_server.hpp>

#include "testing/server_client.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>

#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/describe/class.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace server_client;
namespace json = boost::json;
using forma::testing::model_server_options;
using forma::testing::scripted_reply;

struct city {
    std::string name;
    int population = 0;
};
BOOST_DESCRIBE_STRUCT(city, (), (name, population))

/// A CreateResponse body: `input` (a JSON string or array, as JSON text) and `extra` fields.
std::string create_body(std::string_view input, std::string_view extra = "{}") {
    json::object body{{"model", "test"}, {"input", json::parse(input)}};
    const json::value more = json::parse(extra);
    for (const auto& [key, value] : more.as_object()) body[key] = value;
    return json::serialize(body);
}

/// A CreateResponse body whose input is `text`.
std::string says(std::string_view text, std::string_view extra = "{}") {
    return create_body(json::serialize(json::value(text)), extra);
}

const std::string weather_tools = R"("tools":[{"type":"function","name":"get_weather","description":"Weather.",)"
                                  R"("parameters":{"type":"object","properties":{"city":{"type":"string"},)"
                                  R"("days":{"type":"integer","minimum":1,"maximum":7}},"required":["city","days"],)"
                                  R"("additionalProperties":false},"strict":true},)"
                                  R"({"type":"function","name":"ping","parameters":null,"strict":false}])";

const std::string background_stream = R"({"background":true,"stream":true})";

struct event {
    std::string type;
    json::object data;
};

/// The events of a Responses stream; each `event:` line must name its data's type.
std::vector<event> events_of(std::string_view body) {
    std::vector<event> out;
    while (!body.empty()) {
        const std::size_t end = body.find("\n\n");
        const std::string_view block = body.substr(0, end);
        const std::size_t nl = block.find('\n');
        EXPECT_TRUE(block.starts_with("event: ")) << block;
        EXPECT_TRUE(nl != std::string_view::npos && block.substr(nl + 1).starts_with("data: ")) << block;
        if (nl == std::string_view::npos) break;
        event e{std::string(block.substr(7, nl - 7)), json::parse(block.substr(nl + 7)).as_object()};
        EXPECT_EQ(e.data.at("type"), e.type.c_str());
        out.push_back(std::move(e));
        if (end == std::string_view::npos) break;
        body.remove_prefix(end + 2);
    }
    return out;
}

std::vector<std::string> types_of(const std::vector<event>& events) {
    std::vector<std::string> out;
    for (const event& e : events) out.push_back(e.type);
    return out;
}

/// What the deltas of `type` (".output_text.delta", ...) add up to.
std::string joined(const std::vector<event>& events, std::string_view type, std::string_view field = "delta") {
    std::string out;
    for (const event& e : events)
        if (e.type == type) out += e.data.at(field).as_string();
    return out;
}

std::string text_of(const json::value& response) {
    for (const json::value& item : response.at("output").as_array())
        if (item.at("type") == "message") return std::string(item.at("content").at(0).at("text").as_string());
    return {};
}

std::string status_of(const response& r) { return std::string(json::parse(r.body()).at("status").as_string()); }

class model_server_responses_test : public ::testing::Test {
protected:
    response ask_server(const model_server& server, std::string body, http::verb method = http::verb::post,
                        std::string target = "/v1/responses") {
        return ask(io, server, std::move(body), method, std::move(target));
    }

    /// Polls GET /v1/responses/{id} every few milliseconds until the status is final (or `polls` run out).
    std::vector<std::string> poll_statuses(const model_server& server, const std::string& id, int polls = 400) {
        client c(server);
        return run(io, [&]() -> asio::awaitable<std::vector<std::string>> {
            co_await c.connect();
            std::vector<std::string> statuses;
            asio::steady_timer timer(co_await asio::this_coro::executor);
            for (int i = 0; i < polls; ++i) {
                const response r = co_await c.exchange("", http::verb::get, "/v1/responses/" + id);
                statuses.push_back(status_of(r));
                if (statuses.back() != "queued" && statuses.back() != "in_progress") break;
                timer.expires_after(2ms);
                co_await timer.async_wait(asio::use_awaitable);
            }
            co_return statuses;
        }());
    }

    asio::io_context io;
};

TEST_F(model_server_responses_test, answers_a_whole_response) {
    model_server server(io.get_executor(), {.model = "local-model"});
    const response r = ask_server(server, says("hello there", R"({"instructions":"be brief","metadata":{"k":"v"}})"));
    ASSERT_EQ(r.result_int(), 200) << r.body();
    EXPECT_EQ(r[http::field::content_type], "application/json");
    const json::value body = json::parse(r.body());
    EXPECT_EQ(body.at("object"), "response");
    EXPECT_EQ(body.at("id"), "resp_0");
    EXPECT_EQ(body.at("status"), "completed");
    EXPECT_EQ(body.at("model"), "local-model");
    EXPECT_EQ(body.at("instructions"), "be brief");
    EXPECT_EQ(body.at("metadata"), json::parse(R"({"k":"v"})"));
    EXPECT_GT(body.at("created_at").as_int64(), 1'700'000'000);
    ASSERT_EQ(body.at("output").as_array().size(), 1u);
    const json::value& item = body.at("output").at(0);
    EXPECT_EQ(item.at("type"), "message");
    EXPECT_EQ(item.at("role"), "assistant");
    EXPECT_EQ(item.at("status"), "completed");
    EXPECT_TRUE(item.at("id").as_string().starts_with("msg_"));
    EXPECT_EQ(item.at("content").at(0), json::parse(R"({"type":"output_text","text":"You said: hello there",
                                                        "annotations":[],"logprobs":[]})"));
    EXPECT_EQ(body.at("usage"), json::parse(R"({"input_tokens":2,"input_tokens_details":{"cached_tokens":0,
        "cache_write_tokens":0},"output_tokens":4,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":6})"));
}

TEST_F(model_server_responses_test, reads_input_items_of_every_role_and_ignores_unknown_ones) {
    model_server server(io.get_executor());
    const std::string input = R"([{"role":"system","content":"be brief"},
        {"type":"message","role":"user","content":[{"type":"input_text","text":"first"},
            {"type":"input_image","image_url":"https://example.com/a.png"},{"type":"input_text","text":"part"}]},
        {"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},
        {"type":"reasoning","id":"rs_1","summary":[]},{"type":"brand_new_item","x":1},
        {"role":"developer","content":"no jokes"},{"role":"user","content":"second one"}])";
    const response r = ask_server(server, create_body(input, R"({"text":{"format":{"type":"json_object"}}})"));
    ASSERT_EQ(r.result_int(), 200) << r.body();
    EXPECT_EQ(json::parse(text_of(json::parse(r.body()))), json::parse(R"({"answer":"second one"})"));
    EXPECT_EQ(json::parse(r.body()).at("usage").at("input_tokens"), 4) << "the user messages' words";
    EXPECT_EQ(json::parse(r.body()).at("text").at("format").at("type"), "json_object");
}

TEST_F(model_server_responses_test, streams_numbered_events_whose_deltas_make_the_answer) {
    model_server server(io.get_executor(), {.delta_size = 5, .chunk_delay = 1ms});
    const std::string said = "stream me, café au lait ☕ please";
    client c(server);
    std::vector<std::size_t> chunk_sizes;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await c.connect();
        co_await c.send(http::verb::post, "/v1/responses", says(said, R"({"stream":true})"));
        error_code ec;
        response out = co_await c.read(ec, &chunk_sizes);
        EXPECT_FALSE(ec) << ec.message();
        co_return out;
    }());
    EXPECT_EQ(r[http::field::content_type], "text/event-stream");
    const std::vector<event> events = events_of(r.body());
    ASSERT_EQ(chunk_sizes.size(), events.size()) << "one HTTP chunk per event";
    for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].data.at("sequence_number"), i);

    std::vector<std::string> expected{"response.created", "response.in_progress", "response.output_item.added",
                                      "response.content_part.added"};
    const std::string text = "You said: " + said;
    std::size_t deltas = 0;
    for (const event& e : events)
        if (e.type == "response.output_text.delta") {
            const std::string piece(e.data.at("delta").as_string());
            EXPECT_LE(piece.size(), 5u + 3u);
            EXPECT_NE(static_cast<unsigned char>(piece[0]) & 0xC0, 0x80u) << "never a cut UTF-8 sequence";
            ++deltas;
        }
    expected.insert(expected.end(), deltas, "response.output_text.delta");
    expected.insert(expected.end(), {"response.output_text.done", "response.content_part.done",
                                     "response.output_item.done", "response.completed"});
    EXPECT_EQ(types_of(events), expected);
    EXPECT_EQ(joined(events, "response.output_text.delta"), text);
    EXPECT_EQ(events.at(deltas + 4).data.at("text"), text.c_str());
    EXPECT_EQ(events.front().data.at("response").at("status"), "in_progress");
    EXPECT_TRUE(events.front().data.at("response").at("output").as_array().empty());
    const json::value& done = events.back().data.at("response");
    EXPECT_EQ(done.at("status"), "completed");
    EXPECT_EQ(text_of(done), text);
    EXPECT_EQ(done.at("usage").at("output_tokens"), 9);
}

TEST_F(model_server_responses_test, a_json_schema_format_gets_an_instance_and_a_bad_one_a_400) {
    model_server server(io.get_executor(), {.seed = 2});
    const json::object format{{"type", "json_schema"}, {"name", "city"}, {"schema", forma::json_schema<city>()},
                              {"strict", true}};
    const std::string extra = json::serialize(json::object{{"text", json::object{{"format", format}}}});
    const response r = ask_server(server, says("Oslo is big", extra));
    ASSERT_EQ(r.result_int(), 200) << r.body();
    const city c = forma::from_json<city>(text_of(json::parse(r.body())));
    EXPECT_TRUE(c.name == "Oslo" || c.name == "is" || c.name == "big") << r.body();
    EXPECT_EQ(json::parse(r.body()).at("text").at("format").at("name"), "city");

    const response bad = ask_server(server, says("x", R"({"text":{"format":{"type":"json_schema","name":"n",
        "schema":{"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}}}}})"));
    EXPECT_EQ(bad.result_int(), 400);
    EXPECT_NE(std::string(json::parse(bad.body()).at("error").at("message").as_string()).find("oneOf"),
              std::string::npos)
        << bad.body();
}

TEST_F(model_server_responses_test, offered_tools_are_called_whole_and_streamed) {
    model_server server(io.get_executor(), {.tool_calls_per_turn = 2});
    const response whole = ask_server(server, says("Weather in Oslo", "{" + weather_tools + "}"));
    ASSERT_EQ(whole.result_int(), 200) << whole.body();
    const json::value whole_body = json::parse(whole.body());
    const json::array& output = whole_body.at("output").as_array();
    ASSERT_EQ(output.size(), 2u);
    EXPECT_EQ(output[0].at("type"), "function_call");
    EXPECT_EQ(output[0].at("call_id"), "call_0_0");
    EXPECT_EQ(output[0].at("name"), "get_weather");
    EXPECT_EQ(output[0].at("status"), "completed");
    EXPECT_TRUE(output[0].at("id").as_string().starts_with("fc_"));
    const json::value arguments = json::parse(output[0].at("arguments").as_string());
    EXPECT_NE(std::string("Weather in Oslo").find(arguments.at("city").as_string()), std::string::npos);
    EXPECT_EQ(output[1].at("name"), "ping");
    EXPECT_EQ(output[1].at("arguments"), "{}");

    const response single = ask_server(server, says("x", R"({"parallel_tool_calls":false,)" + weather_tools + "}"));
    EXPECT_EQ(json::parse(single.body()).at("output").as_array().size(), 1u);
    const response named =
        ask_server(server, says("x", R"({"tool_choice":{"type":"function","name":"ping"},)" + weather_tools + "}"));
    EXPECT_EQ(json::parse(named.body()).at("output").at(0).at("name"), "ping");
    EXPECT_EQ(json::parse(named.body()).at("tool_choice"), json::parse(R"({"type":"function","name":"ping"})"));
    const response none = ask_server(server, says("hi", R"({"tool_choice":"none",)" + weather_tools + "}"));
    EXPECT_EQ(text_of(json::parse(none.body())), "You said: hi");
    const response unknown =
        ask_server(server, says("x", R"({"tool_choice":{"type":"function","name":"nope"},)" + weather_tools + "}"));
    EXPECT_EQ(unknown.result_int(), 400);

    const response streamed = ask_server(server, says("Weather in Oslo", R"({"stream":true,)" + weather_tools + "}"));
    const std::vector<event> events = events_of(streamed.body());
    std::vector<std::string> arguments_done;
    for (const event& e : events)
        if (e.type == "response.function_call_arguments.done")
            arguments_done.emplace_back(e.data.at("arguments").as_string());
    ASSERT_EQ(arguments_done.size(), 2u);
    EXPECT_EQ(joined(events, "response.function_call_arguments.delta"), arguments_done[0] + arguments_done[1])
        << "the calls' pieces come one call after the other";
    const json::array& final_output = events.back().data.at("response").at("output").as_array();
    EXPECT_EQ(final_output.at(0).at("arguments"), arguments_done[0].c_str());
    EXPECT_EQ(final_output.at(0).at("call_id"), "call_5_0");
}

TEST_F(model_server_responses_test, a_function_call_output_ends_the_calls_and_the_model_answers) {
    model_server server(io.get_executor(), {.tool_fault = forma::testing::tool_call_fault::unknown_tool});
    const std::string input = R"([{"role":"user","content":"Weather in Oslo?"},
        {"type":"function_call","call_id":"c1","name":"get_weather","arguments":"{}"},
        {"type":"function_call_output","call_id":"c1","output":"5 degrees"}])";
    const response r = ask_server(server, create_body(input, "{" + weather_tools + "}"));
    EXPECT_EQ(text_of(json::parse(r.body())), "You said: Weather in Oslo?");

    const response faulty = ask_server(server, says("x", "{" + weather_tools + "}"));
    EXPECT_EQ(json::parse(faulty.body()).at("output").at(0).at("name"), "no_such_tool");
}

TEST_F(model_server_responses_test, a_reasoning_summary_comes_first_whole_and_streamed) {
    model_server server(io.get_executor(), {.delta_size = 4, .reasoning_summary = "Thinking it over."});
    const response whole = ask_server(server, says("hi", R"({"include":["reasoning.encrypted_content"]})"));
    const json::value body = json::parse(whole.body());
    const json::array& output = body.at("output").as_array();
    ASSERT_EQ(output.size(), 2u);
    EXPECT_EQ(output[0].at("type"), "reasoning");
    EXPECT_EQ(output[0].at("id"), "rs_0");
    EXPECT_EQ(output[0].at("summary"), json::parse(R"([{"type":"summary_text","text":"Thinking it over."}])"));
    EXPECT_EQ(output[0].at("encrypted_content"), "enc_0");
    EXPECT_EQ(output[1].at("type"), "message");
    EXPECT_EQ(body.at("usage").at("output_tokens_details").at("reasoning_tokens"), 3);
    EXPECT_EQ(body.at("usage").at("output_tokens"), 3 + 3);

    const response plain = ask_server(server, says("hi"));
    EXPECT_FALSE(json::parse(plain.body()).at("output").at(0).as_object().contains("encrypted_content"));

    const std::vector<event> events = events_of(ask_server(server, says("hi", R"({"stream":true})")).body());
    const std::vector<std::string> types = types_of(events);
    ASSERT_GE(types.size(), 8u);
    EXPECT_EQ(types[2], "response.output_item.added");
    EXPECT_EQ(events[2].data.at("item").at("type"), "reasoning");
    EXPECT_EQ(types[3], "response.reasoning_summary_part.added");
    EXPECT_EQ(joined(events, "response.reasoning_summary_text.delta"), "Thinking it over.");
    EXPECT_EQ(joined(events, "response.reasoning_summary_text.done", "text"), "Thinking it over.");
    EXPECT_EQ(joined(events, "response.output_text.delta"), "You said: hi");
}

TEST_F(model_server_responses_test, max_output_tokens_cuts_the_text_and_the_response_is_incomplete) {
    model_server server(io.get_executor());
    const response r = ask_server(server, says("one two three four", R"({"max_output_tokens":3})"));
    const json::value body = json::parse(r.body());
    EXPECT_EQ(body.at("status"), "incomplete");
    EXPECT_EQ(body.at("incomplete_details"), json::parse(R"({"reason":"max_output_tokens"})"));
    EXPECT_EQ(text_of(body), "You said: one");
    EXPECT_EQ(body.at("output").at(0).at("status"), "incomplete");
    EXPECT_EQ(body.at("usage").at("output_tokens"), 3);

    const std::vector<event> events = events_of(ask_server(server, says("one two", R"({"stream":true,
        "max_output_tokens":2})")).body());
    EXPECT_EQ(events.back().type, "response.incomplete");
    EXPECT_EQ(joined(events, "response.output_text.delta"), "You said:");
}

TEST_F(model_server_responses_test, a_background_response_is_queued_then_polled_to_completion) {
    model_server server(io.get_executor(), {.background_duration = 200ms});
    const response created = ask_server(server, says("in the background", R"({"background":true})"));
    ASSERT_EQ(created.result_int(), 200) << created.body();
    const json::value body = json::parse(created.body());
    EXPECT_EQ(body.at("status"), "queued");
    EXPECT_EQ(body.at("background"), true);
    EXPECT_TRUE(body.at("output").as_array().empty());

    const std::vector<std::string> statuses = poll_statuses(server, "resp_0");
    ASSERT_FALSE(statuses.empty());
    EXPECT_EQ(statuses.back(), "completed");
    EXPECT_NE(std::find(statuses.begin(), statuses.end(), "in_progress"), statuses.end());
    // The statuses only move forward.
    const std::vector<std::string> order{"queued", "in_progress", "completed"};
    std::size_t at = 0;
    for (const std::string& s : statuses) {
        const std::size_t i = static_cast<std::size_t>(std::find(order.begin(), order.end(), s) - order.begin());
        ASSERT_LT(i, order.size()) << s;
        EXPECT_GE(i, at) << s;
        at = i;
    }
    const response done = ask_server(server, "", http::verb::get, "/v1/responses/resp_0");
    EXPECT_EQ(text_of(json::parse(done.body())), "You said: in the background");
    EXPECT_EQ(json::parse(done.body()).at("usage").at("output_tokens"), 5);
}

TEST_F(model_server_responses_test, a_dropped_background_stream_resumes_with_every_event_once) {
    model_server server(io.get_executor(), {.background_duration = 60ms, .drop_stream_after_events = 3});
    std::vector<std::int64_t> sequence;
    std::string text;
    std::string last_type;
    int drops = 0;
    for (int attempt = 0; attempt < 20 && last_type != "response.completed"; ++attempt) {
        client c(server);
        error_code ec;
        const response r = run(io, [&]() -> asio::awaitable<response> {
            co_await c.connect();
            if (sequence.empty())
                co_await c.send(http::verb::post, "/v1/responses", says("resume me", background_stream));
            else
                co_await c.send(http::verb::get, "/v1/responses/resp_0?stream=true&starting_after=" +
                                                     std::to_string(sequence.back()), "");
            co_return co_await c.read(ec);
        }());
        drops += ec ? 1 : 0;
        for (const event& e : events_of(r.body())) {
            sequence.push_back(e.data.at("sequence_number").as_int64());
            if (e.type == "response.output_text.delta") text += e.data.at("delta").as_string();
            last_type = e.type;
        }
    }
    EXPECT_EQ(last_type, "response.completed");
    EXPECT_GE(drops, 2);
    for (std::size_t i = 0; i < sequence.size(); ++i) EXPECT_EQ(sequence[i], static_cast<std::int64_t>(i));
    EXPECT_EQ(text, "You said: resume me");
}

TEST_F(model_server_responses_test, cancel_stops_a_background_run_and_is_idempotent) {
    model_server server(io.get_executor(), {.background_duration = 10s});
    EXPECT_EQ(status_of(ask_server(server, says("long", R"({"background":true})"))), "queued");
    const response cancelled = ask_server(server, "", http::verb::post, "/v1/responses/resp_0/cancel");
    ASSERT_EQ(cancelled.result_int(), 200) << cancelled.body();
    EXPECT_EQ(status_of(cancelled), "cancelled");
    EXPECT_EQ(status_of(ask_server(server, "", http::verb::get, "/v1/responses/resp_0")), "cancelled");
    EXPECT_EQ(status_of(ask_server(server, "", http::verb::post, "/v1/responses/resp_0/cancel")), "cancelled");
    // Its stream holds what was due before the cancel, and ends.
    const response resumed = ask_server(server, "", http::verb::get, "/v1/responses/resp_0?stream=true");
    EXPECT_EQ(types_of(events_of(resumed.body())), std::vector<std::string>{"response.created"});

    // Neither a response made in the foreground nor a finished one can be cancelled.
    ask_server(server, says("now"));
    EXPECT_EQ(ask_server(server, "", http::verb::post, "/v1/responses/resp_5/cancel").result_int(), 400);
    model_server quick(io.get_executor(), {.background_duration = 0ms});
    EXPECT_EQ(status_of(ask_server(quick, says("done", R"({"background":true})"))), "completed");
    const response late = ask_server(quick, "", http::verb::post, "/v1/responses/resp_0/cancel");
    EXPECT_EQ(late.result_int(), 400);
    EXPECT_EQ(json::parse(late.body()).at("error").at("type"), "invalid_request_error");
}

TEST_F(model_server_responses_test, a_cancel_ends_a_background_stream_in_flight) {
    model_server server(io.get_executor(), {.background_duration = 10s});
    client streaming(server), canceller(server);
    std::optional<response> cancel_reply;
    bool cancel_sent = false;
    error_code ec;
    const response r = run(io, [&]() -> asio::awaitable<response> {
        co_await streaming.connect();
        co_await canceller.connect();
        co_await streaming.send(http::verb::post, "/v1/responses", says("long", background_stream));
        auto ex = co_await asio::this_coro::executor;
        response out = co_await streaming.read_progress(ec, [&](std::string_view body) {
            if (cancel_sent || body.find("response.created") == std::string_view::npos) return;
            cancel_sent = true; // the first event is in: cancel the run from another connection
            asio::co_spawn(
                ex,
                [&]() -> asio::awaitable<void> {
                    cancel_reply = co_await canceller.exchange("", http::verb::post, "/v1/responses/resp_0/cancel");
                },
                asio::detached);
        });
        asio::steady_timer timer(ex);
        for (int i = 0; i < 1000 && !cancel_reply; ++i) {
            timer.expires_after(2ms);
            co_await timer.async_wait(asio::use_awaitable);
        }
        co_return out;
    }());
    EXPECT_FALSE(ec) << "the stream ends properly: " << ec.message();
    ASSERT_TRUE(cancel_reply);
    EXPECT_EQ(status_of(*cancel_reply), "cancelled");
    EXPECT_EQ(types_of(events_of(r.body())), std::vector<std::string>{"response.created"});
}

TEST_F(model_server_responses_test, unknown_ids_are_404s_naming_the_id) {
    model_server server(io.get_executor());
    for (const auto& [method, target, body] :
         {std::tuple{http::verb::get, "/v1/responses/resp_nope", std::string()},
          std::tuple{http::verb::post, "/v1/responses/resp_nope/cancel", std::string()},
          std::tuple{http::verb::post, "/v1/responses", says("x", R"({"previous_response_id":"resp_nope"})")}}) {
        const response r = ask_server(server, body, method, target);
        EXPECT_EQ(r.result_int(), 404) << target;
        const json::value error = json::parse(r.body()).at("error");
        EXPECT_EQ(error.at("type"), "invalid_request_error");
        EXPECT_EQ(error.at("code"), "response_not_found");
        EXPECT_NE(std::string(error.at("message").as_string()).find("'resp_nope'"), std::string::npos) << r.body();
    }
}

TEST_F(model_server_responses_test, store_false_is_not_kept_and_cannot_run_in_the_background) {
    model_server server(io.get_executor());
    const response r = ask_server(server, says("forget me", R"({"store":false})"));
    EXPECT_EQ(r.result_int(), 200);
    EXPECT_EQ(json::parse(r.body()).at("store"), false);
    EXPECT_EQ(ask_server(server, "", http::verb::get, "/v1/responses/resp_0").result_int(), 404);
    EXPECT_EQ(ask_server(server, says("x", R"({"store":false,"background":true})")).result_int(), 400);
    EXPECT_EQ(ask_server(server, says("kept")).result_int(), 200);
    EXPECT_EQ(ask_server(server, "", http::verb::get, "/v1/responses/resp_3").result_int(), 200);
}

TEST_F(model_server_responses_test, previous_response_id_puts_the_stored_turn_before_the_input) {
    model_server server(io.get_executor());
    const response call = ask_server(server, says("Weather in Oslo", "{" + weather_tools + "}"));
    EXPECT_EQ(json::parse(call.body()).at("output").at(0).at("call_id"), "call_0_0");
    const std::string input = R"([{"type":"function_call_output","call_id":"call_0_0","output":"5 degrees"}])";
    const response answer =
        ask_server(server, create_body(input, R"({"previous_response_id":"resp_0",)" + weather_tools + "}"));
    ASSERT_EQ(answer.result_int(), 200) << answer.body();
    const json::value body = json::parse(answer.body());
    EXPECT_EQ(text_of(body), "You said: Weather in Oslo") << "the last user message is the first turn's";
    EXPECT_EQ(body.at("previous_response_id"), "resp_0");
    EXPECT_EQ(body.at("usage").at("input_tokens"), 3);
}

TEST_F(model_server_responses_test, the_handler_sees_polls_with_their_query_and_can_fail_them) {
    model_server server(io.get_executor(), {.background_duration = 0ms});
    std::vector<std::pair<std::string, std::string>> seen;
    server.set_handler([&](const forma::testing::received_request& r) -> std::optional<scripted_reply> {
        seen.emplace_back(r.method, r.target);
        if (r.method == "GET" && seen.size() == 2) return scripted_reply::error(503, "server_error", "Busy.");
        return std::nullopt;
    });
    ask_server(server, says("x", R"({"background":true})"));
    const std::string target = "/v1/responses/resp_0?stream=true&starting_after=3";
    EXPECT_EQ(ask_server(server, "", http::verb::get, target).result_int(), 503);
    const response resumed = ask_server(server, "", http::verb::get, target);
    EXPECT_EQ(events_of(resumed.body()).front().data.at("sequence_number"), 4);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1], (std::pair<std::string, std::string>{"GET", target}));
}

TEST_F(model_server_responses_test, rejects_wrong_methods_and_bodies) {
    model_server server(io.get_executor());
    const response get_all = ask_server(server, "", http::verb::get, "/v1/responses");
    EXPECT_EQ(get_all.result_int(), 405);
    EXPECT_EQ(get_all[http::field::allow], "POST");
    EXPECT_EQ(ask_server(server, "", http::verb::delete_, "/v1/responses/resp_0")[http::field::allow], "GET");
    for (std::string body : {"[1]", "{}", "not json", R"({"input":3})"})
        EXPECT_EQ(ask_server(server, body).result_int(), 400) << body;
    EXPECT_EQ(ask_server(server, "{}", http::verb::post, "/v1/responses/resp_0/input_items").result_int(), 404);
}

TEST_F(model_server_responses_test, scripted_responses_answer_before_the_generator) {
    model_server server(io.get_executor());
    server.enqueue(scripted_reply::response_text("cut sh", "incomplete"));
    server.enqueue(scripted_reply::response_stream("héllo ☕", 2));
    server.enqueue(scripted_reply::response_function_calls({{"call_a", "get_weather", R"({"city":"Oslo"})"}}));
    server.enqueue(scripted_reply::response_events({R"({"type":"response.mystery","sequence_number":0})", "{broken"}));

    const json::value incomplete = json::parse(ask_server(server, says("x")).body());
    EXPECT_EQ(incomplete.at("status"), "incomplete");
    EXPECT_EQ(text_of(incomplete), "cut sh");
    const std::vector<event> streamed = events_of(ask_server(server, says("x")).body());
    EXPECT_EQ(joined(streamed, "response.output_text.delta"), "héllo ☕");
    EXPECT_EQ(streamed.back().type, "response.completed");
    const json::value calls = json::parse(ask_server(server, says("x")).body());
    EXPECT_EQ(calls.at("output").at(0).at("call_id"), "call_a");
    EXPECT_EQ(calls.at("output").at(0).at("arguments"), R"({"city":"Oslo"})");
    EXPECT_EQ(ask_server(server, says("x")).body(),
              "event: response.mystery\ndata: {\"type\":\"response.mystery\",\"sequence_number\":0}\n\n"
              "data: {broken\n\n");
    EXPECT_EQ(text_of(json::parse(ask_server(server, says("generated")).body())), "You said: generated");
}

} // namespace
