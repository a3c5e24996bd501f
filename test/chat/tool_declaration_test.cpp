// Declaring tools: make_tool from described structs and from runtime schemas, what their
// invokers read and return, the strict rules, tool_choice and merging tools by name.
#include <forma/chat/chat_options.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/json/strict_rules.hpp>
#include <forma/reflect/field_info.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

namespace {

using namespace forma;
namespace asio = boost::asio;

struct weather_query {
    std::string city;
    std::optional<std::string> units;
};
BOOST_DESCRIBE_STRUCT(weather_query, (), (city, units))
FORMA_DESCRIBE_FIELDS(weather_query, (city, .description = "City name", .min_length = 1));

struct forecast {
    std::string city;
    double celsius = 0;
};
BOOST_DESCRIBE_STRUCT(forecast, (), (city, celsius))

boost::json::value json(std::string_view text) { return boost::json::parse(text); }

// Calls the tool with `arguments` as the model would (through the completion-token form,
// which awaits invoke), and returns the result or the error.
boost::json::value call(const function_tool& tool, std::string arguments) {
    asio::io_context io;
    const function_call_content request("call_1", tool.name());
    const tool_invocation invocation{request, arguments};
    auto future = tool.async_invoke(io.get_executor(), invocation, asio::use_future);
    io.run();
    return future.get();
}

template <class Error, class F>
Error caught(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e;
    }
    throw std::logic_error("expected an exception");
}

TEST(make_tool, a_typed_tool_declares_its_strict_schema_and_reads_its_arguments) {
    int calls = 0;
    const function_tool tool = make_tool("get_weather", "The weather in a city", [&](const weather_query& q) {
        ++calls;
        return forecast{q.city, q.units ? 50.0 : 10.0};
    });
    EXPECT_EQ(tool.name(), "get_weather");
    EXPECT_EQ(tool.description(), "The weather in a city");
    EXPECT_EQ(tool.parameters(), json_schema<weather_query>({.dialect = schema_dialect::openai_strict}));
    EXPECT_EQ(tool.parameters().at("properties").at("city").at("description"), "City name (minLength: 1)");
    EXPECT_TRUE(tool.strict());
    EXPECT_FALSE(tool.options().requires_approval);

    // Written with to_json, which writes 10.0 as 10.
    EXPECT_EQ(call(tool, R"({"city":"Oslo","units":null})"), json(R"({"city":"Oslo","celsius":10})"));
    EXPECT_EQ(call(tool, R"({"city":"Oslo","units":"F"})"), json(R"({"city":"Oslo","celsius":50})"));
    EXPECT_EQ(calls, 2);
}

TEST(make_tool, arguments_that_do_not_fit_are_a_tool_arguments_error_with_their_path) {
    int calls = 0;
    const function_tool tool = make_tool("get_weather", "", [&](weather_query) {
        ++calls;
        return 1;
    });
    auto wrong_type = caught<tool_arguments_error>([&] { call(tool, R"({"city": 5})"); });
    EXPECT_EQ(wrong_type.path(), "/city");
    EXPECT_NE(std::string(wrong_type.what()).find("expected string"), std::string::npos) << wrong_type.what();
    auto constraint = caught<tool_arguments_error>([&] { call(tool, R"({"city": ""})"); });
    EXPECT_EQ(constraint.path(), "/city");
    auto missing = caught<tool_arguments_error>([&] { call(tool, R"({"units": "C"})"); });
    EXPECT_NE(std::string(missing.what()).find("missing required member \"city\""), std::string::npos)
        << missing.what();
    auto broken = caught<tool_arguments_error>([&] { call(tool, R"({"city": "Os)"); });
    EXPECT_NE(std::string(broken.what()).find("invalid JSON"), std::string::npos) << broken.what();
    EXPECT_EQ(calls, 0);
}

TEST(make_tool, a_tool_may_take_nothing_return_nothing_or_be_a_coroutine) {
    bool ran = false;
    const function_tool no_arguments = make_tool("ping", "Pings", [&] {
        ran = true;
        return std::string("pong");
    });
    EXPECT_EQ(no_arguments.parameters(),
              json(R"({"type":"object","properties":{},"required":[],"additionalProperties":false})"));
    EXPECT_TRUE(no_arguments.strict());
    EXPECT_EQ(call(no_arguments, ""), "pong");
    EXPECT_EQ(call(no_arguments, "{}"), "pong");
    EXPECT_TRUE(ran);

    const function_tool returns_void = make_tool("log", "", [](weather_query) {});
    EXPECT_TRUE(call(returns_void, R"({"city":"x","units":null})").is_null());

    const function_tool coroutine =
        make_tool("slow", "", [](weather_query q) -> asio::awaitable<forecast> {
            asio::steady_timer timer(co_await asio::this_coro::executor, std::chrono::milliseconds(1));
            co_await timer.async_wait(asio::use_awaitable);
            co_return forecast{q.city, 3.5};
        });
    EXPECT_EQ(call(coroutine, R"({"city":"Rome","units":null})"), json(R"({"city":"Rome","celsius":3.5})"));

    const function_tool void_coroutine = make_tool("nothing", "", []() -> asio::awaitable<void> { co_return; });
    EXPECT_TRUE(call(void_coroutine, "").is_null());

    // A function pointer works as well as a lambda.
    const function_tool pointer = make_tool("p", "", +[](const weather_query& q) { return q.city.size(); });
    EXPECT_EQ(call(pointer, R"({"city":"abc","units":null})"), 3);
}

TEST(make_tool, an_exception_of_the_callable_propagates_to_the_loop) {
    const function_tool tool = make_tool("fail", "", [] () -> int { throw std::runtime_error("boom"); });
    EXPECT_THROW(call(tool, "{}"), std::runtime_error);
}

TEST(make_tool, names_an_api_would_refuse_are_errors) {
    const auto noop = [] {};
    EXPECT_NO_THROW(make_tool("a-Z_09", "", noop));
    EXPECT_NO_THROW(make_tool(std::string(64, 'x'), "", noop));
    for (std::string bad : {std::string(), std::string(65, 'x'), std::string("get weather"), std::string("a.b"),
                            std::string("caf\xC3\xA9"), std::string("\xFF")}) {
        auto e = caught<forma::error>([&] { make_tool(bad, "", noop); });
        EXPECT_NE(std::string(e.what()).find("is not 1 to 64 letters"), std::string::npos) << e.what();
    }
    // The message never carries the bad bytes as they are.
    auto e = caught<forma::error>([&] { make_tool("\xFF", "", noop); });
    EXPECT_NE(std::string(e.what()).find("\"\\xff\""), std::string::npos) << e.what();
}

TEST(make_tool, a_runtime_schema_tool_validates_its_arguments_against_the_schema) {
    const std::string schema = R"({"type":"object","properties":{"zone":{"type":"string","pattern":"^[A-Z]+$"},)"
                               R"("hours":{"type":"integer","maximum":12}},"required":["zone","hours"],)"
                               R"("additionalProperties":false})";
    std::vector<boost::json::value> seen;
    const function_tool tool = make_tool("get_time", "The time", schema, [&](const boost::json::value& arguments) {
        seen.push_back(arguments);
        return arguments.at("hours").as_int64() * 2;
    });
    EXPECT_EQ(tool.parameters(), json(schema));
    EXPECT_TRUE(tool.strict());
    EXPECT_EQ(call(tool, R"({"zone":"UTC","hours":3})"), 6);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0], json(R"({"zone":"UTC","hours":3})"));

    EXPECT_EQ(caught<tool_arguments_error>([&] { call(tool, R"({"zone":"utc","hours":3})"); }).path(), "/zone");
    EXPECT_EQ(caught<tool_arguments_error>([&] { call(tool, R"({"zone":"UTC","hours":13})"); }).path(), "/hours");
    auto extra = caught<tool_arguments_error>([&] { call(tool, R"({"zone":"UTC","hours":1,"x":0})"); });
    EXPECT_NE(std::string(extra.what()).find("\"x\""), std::string::npos) << extra.what();
    auto broken = caught<tool_arguments_error>([&] { call(tool, R"({"zone": )"); });
    EXPECT_NE(std::string(broken.what()).find("not valid JSON"), std::string::npos) << broken.what();
    EXPECT_NE(std::string(broken.what()).find("line 1, column 10"), std::string::npos) << broken.what();
    auto deep = caught<tool_arguments_error>([&] { call(tool, std::string(100, '[') + std::string(100, ']')); });
    EXPECT_NE(std::string(deep.what()).find("not valid JSON"), std::string::npos) << deep.what();
    auto huge = caught<tool_arguments_error>([&] { call(tool, R"({"zone":"UTC","hours":1e400})"); });
    EXPECT_EQ(huge.path(), "/hours");
    EXPECT_EQ(seen.size(), 1u) << "the callable runs only on valid arguments";
}

TEST(make_tool, a_runtime_schema_that_is_not_one_is_a_schema_error) {
    const auto noop = [](boost::json::value) {};
    EXPECT_THROW(make_tool("t", "", "{not json", noop), schema_error);
    EXPECT_THROW(make_tool("t", "", R"({"type":"object","unevaluatedProperties":false})", noop), schema_error);
    EXPECT_THROW(make_tool("t", "", "true", noop), schema_error);
    const function_tool loose = make_tool("t", "", R"({"type":"object","properties":{"a":{"type":"string"}}})", noop);
    EXPECT_FALSE(loose.strict()); // open, and "a" is not required
}

TEST(make_tool, parameters_that_are_not_an_object_schema_are_a_schema_error) {
    const auto noop = [](boost::json::value) {};
    const std::pair<std::string_view, std::string_view> cases[] = {
        {R"({"type":"string"})", "its \"type\" is \"string\""},
        {R"({"type":["object","null"]})", "its \"type\" is [\"object\",\"null\"]"},
        {R"({"properties":{"a":{"type":"string"}}})", "it has no \"type\""},
        {"true", "it is the boolean schema true"},
    };
    for (const auto& [schema_text, why] : cases) {
        const std::string_view schema = schema_text; // clang 14 cannot capture a structured binding
        const auto e = caught<schema_error>([&] { make_tool("t", "", schema, noop); });
        const std::string what = e.what();
        EXPECT_NE(what.find("the parameters schema of the tool \"t\" must be an object schema (\"type\": \"object\")"),
                  std::string::npos)
            << schema << ": " << what;
        EXPECT_NE(what.find(why), std::string::npos) << schema << ": " << what;
    }
    // Every tool passes function_tool's constructor, which holds to the same rule.
    const function_tool::invoker_type invoker = [](const tool_invocation&) -> asio::awaitable<boost::json::value> {
        co_return nullptr;
    };
    const auto e =
        caught<schema_error>([&] { function_tool("direct", "", json(R"({"type":"array"})").as_object(), invoker); });
    EXPECT_NE(std::string(e.what()).find("the tool \"direct\" must be an object schema"), std::string::npos)
        << e.what();
    EXPECT_NO_THROW(function_tool("direct", "", json(R"({"type":"object"})").as_object(), invoker));
}

TEST(make_tool, copies_share_one_definition) {
    const function_tool a = make_tool("a", "", [] {});
    const function_tool copy = a; // NOLINT(performance-unnecessary-copy-initialization)
    const function_tool other = make_tool("a", "", [] {});
    EXPECT_EQ(a, copy);
    EXPECT_NE(a, other);
    const function_tool guarded =
        make_tool("b", "", [] {}, {.requires_approval = true, .timeout = std::chrono::milliseconds(250)});
    EXPECT_TRUE(guarded.options().requires_approval);
    EXPECT_EQ(guarded.options().timeout, std::chrono::milliseconds(250));
}

TEST(strict_rules, what_strict_mode_refuses_is_named_by_its_path) {
    auto violation = [](std::string_view schema) { return openai_strict_violation(json(schema).as_object()); };
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],)"
                        R"("additionalProperties":false})"),
              std::nullopt);
    EXPECT_EQ(violation(R"({"type":"object","properties":{},"required":[],"additionalProperties":false,)"
                        R"("$defs":{"n":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/n"}]}}})"),
              std::nullopt);
    EXPECT_EQ(violation(R"({"type":"string"})"), "the root must be an object schema (\"type\": \"object\")");
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a":{"type":"string"}},"required":[],)"
                        R"("additionalProperties":false})"),
              "at the root: \"required\" lacks \"a\"");
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a":{"type":"object","properties":{}}},"required":["a"],)"
                        R"("additionalProperties":false})"),
              "/properties/a: an object must say \"additionalProperties\": false");
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a/b":{"type":"array","items":{"type":"string",)"
                        R"("minLength":2}}},"required":["a/b"],"additionalProperties":false})"),
              "/properties/a~1b/items: \"minLength\" is not supported");
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a":{"$ref":"#/$defs/x","description":"d"}},)"
                        R"("required":["a"],"additionalProperties":false,"$defs":{"x":{"type":"string"}}})"),
              "/properties/a: \"$ref\" must stand alone");
    EXPECT_EQ(violation(R"({"type":"object","properties":{"a":{"type":"string","format":"uri"}},"required":["a"],)"
                        R"("additionalProperties":false})"),
              "/properties/a: the format is not one strict mode supports");
    std::string deep = R"({"type":"object","properties":{},"required":[],"additionalProperties":false})";
    for (int i = 0; i < 10; ++i)
        deep = R"({"type":"object","properties":{"x":)" + deep + R"(},"required":["x"],"additionalProperties":false})";
    EXPECT_NE(violation(deep), std::nullopt);
    EXPECT_NE(violation(deep)->find("more than 10 levels"), std::string::npos);
}

TEST(tool_arguments_text, the_text_the_provider_sent_else_the_arguments_written_out) {
    function_call_content chat("c", "f", {{"a", 1}});
    chat.raw_representation = json(R"({"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\": 1 }"}})");
    EXPECT_EQ(tool_arguments_text(chat), R"({"a": 1 })");
    function_call_content responses("c", "f", {});
    responses.raw_representation = json(R"({"type":"function_call","call_id":"c","arguments":"not json"})");
    EXPECT_EQ(tool_arguments_text(responses), "not json");
    EXPECT_EQ(tool_arguments_text(function_call_content("c", "f", {{"b", "x"}})), R"({"b":"x"})");
}

TEST(chat_options_tools, merging_replaces_tools_by_name_in_place_and_keeps_the_rest) {
    const function_tool a = make_tool("a", "first", [] {});
    const function_tool b = make_tool("b", "", [] {});
    const function_tool a2 = make_tool("a", "second", [] {});
    const function_tool c = make_tool("c", "", [] {});
    const chat_options merged =
        merge(chat_options{.tools = {a, b}, .tool_choice = tool_choice::required()},
              chat_options{.tools = {c, a2}, .parallel_tool_calls = false});
    ASSERT_EQ(merged.tools.size(), 3u);
    EXPECT_EQ(merged.tools[0], a2);
    EXPECT_EQ(merged.tools[1], b);
    EXPECT_EQ(merged.tools[2], c);
    EXPECT_EQ(merged.tool_choice, tool_choice::required());
    EXPECT_EQ(merged.parallel_tool_calls, false);
    EXPECT_EQ(merge(merged, chat_options{.tool_choice = tool_choice::function("b")}).tool_choice,
              tool_choice::function("b"));
}

TEST(tool_choice, modes_and_names) {
    EXPECT_EQ(tool_choice::automatic().mode(), tool_choice_mode::automatic);
    EXPECT_EQ(tool_choice::none().mode(), tool_choice_mode::none);
    EXPECT_EQ(tool_choice::required().mode(), tool_choice_mode::required);
    EXPECT_EQ(tool_choice::function("f").mode(), tool_choice_mode::function);
    EXPECT_EQ(tool_choice::function("f").function_name(), "f");
    EXPECT_EQ(tool_choice::none().function_name(), "");
    EXPECT_NE(tool_choice::function("f"), tool_choice::function("g"));
}

} // namespace
