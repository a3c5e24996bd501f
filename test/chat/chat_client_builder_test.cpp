// chat_client_builder and delegating_chat_client: decorators stacked in the order given (the
// first outermost), a built stack that owns its decorators and the inner client, and the tool
// loop, the cache and the limiter working together over a scripted model.
#include <forma/chat/chat_client_builder.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include "support/bounded_run.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/describe/class.hpp>

#include <gtest/gtest.h>

namespace asio = boost::asio;
using forma::chat_message;
using forma::chat_role;

namespace {

struct add_args {
    int n = 0;
};
BOOST_DESCRIBE_STRUCT(add_args, (), (n))

/// A decorator of the test's own, on the shared base: counts requests, streamed or not.
class counting_client : public forma::delegating_chat_client {
public:
    using delegating_chat_client::delegating_chat_client;
    int requests = 0;

protected:
    asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        ++requests;
        return delegating_chat_client::get_response_core(std::move(request));
    }
    forma::update_stream get_streaming_response_core(forma::chat_request request) override {
        ++requests;
        return delegating_chat_client::get_streaming_response_core(std::move(request));
    }
};

forma::agent_response<> call_turn() {
    forma::agent_response<> turn;
    turn.messages.emplace_back(chat_role::assistant(),
                               std::vector<forma::content>{forma::function_call_content("call_1", "add_one", {{"n", 41}})});
    return turn;
}

class chat_client_builder_test : public ::testing::Test {
protected:
    template <class T>
    T run(asio::awaitable<T> operation) {
        return forma_test::run_bounded(io, std::move(operation), std::chrono::seconds(10));
    }
    static std::vector<chat_message> ask(std::string text) { return {chat_message(chat_role::user(), std::move(text))}; }

    asio::io_context io;
};

} // namespace

TEST_F(chat_client_builder_test, the_first_decorator_is_outermost_and_each_wraps_the_next) {
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    auto cache = std::make_shared<forma::in_memory_response_cache>();
    std::shared_ptr<forma::chat_client> built = forma::chat_client_builder(model)
                                                    .use_function_invocation()
                                                    .use_cache(cache)
                                                    .use_concurrency_limit({.max_in_flight = 1})
                                                    .build();
    auto* loop = dynamic_cast<forma::function_invoking_chat_client*>(built.get());
    ASSERT_NE(loop, nullptr);
    auto* caching = dynamic_cast<forma::caching_chat_client*>(&loop->inner());
    ASSERT_NE(caching, nullptr);
    auto* limiter = dynamic_cast<forma::concurrency_limiter*>(&caching->inner());
    ASSERT_NE(limiter, nullptr);
    EXPECT_EQ(&limiter->inner(), model.get());
    EXPECT_EQ(limiter->options().max_in_flight, 1u);
}

TEST_F(chat_client_builder_test, find_reaches_each_layer_of_a_stack_outermost_first) {
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    auto counter = std::make_shared<counting_client>(std::shared_ptr<forma::chat_client>(model));
    const auto count = [](std::shared_ptr<forma::chat_client> inner) -> std::shared_ptr<forma::chat_client> {
        return std::make_shared<counting_client>(std::move(inner));
    };
    std::shared_ptr<forma::chat_client> built =
        forma::chat_client_builder(counter).use_function_invocation().use(count).build();
    auto* loop = built->find<forma::function_invoking_chat_client>();
    ASSERT_EQ(loop, built.get()) << "the client itself is the first layer";
    auto* outer_counter = built->find<counting_client>();
    ASSERT_NE(outer_counter, nullptr);
    EXPECT_EQ(outer_counter, &loop->inner()) << "the outermost of two";
    EXPECT_EQ(built->find<forma::delegating_chat_client>(), loop) << "a base class finds the first layer that is one";
    EXPECT_EQ(built->find<forma::testing::scripted_chat_client>(), model.get()) << "the provider under decorators";
    EXPECT_EQ(built->find<forma::caching_chat_client>(), nullptr);
    const forma::chat_client& read_only = *built;
    EXPECT_EQ(read_only.find<forma::testing::scripted_chat_client>(), model.get());
    EXPECT_EQ(model->find<forma::function_invoking_chat_client>(), nullptr) << "a provider delegates to none";
}

TEST_F(chat_client_builder_test, the_built_stack_owns_the_inner_client_and_runs_the_tool_loop_through_the_cache) {
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    std::weak_ptr<forma::testing::scripted_chat_client> watched = model;
    model->add_response(call_turn());
    model->add_text_response("42");
    auto cache = std::make_shared<forma::in_memory_response_cache>();
    auto counter = std::make_shared<counting_client>(std::shared_ptr<forma::chat_client>(model));
    model.reset(); // the stack keeps it
    std::shared_ptr<forma::chat_client> built =
        forma::chat_client_builder(counter).use_function_invocation().use_cache(cache).build();
    counter.reset();

    forma::chat_options options;
    options.temperature = 0.0;
    options.tools.push_back(forma::make_tool("add_one", "Adds one", [](const add_args& a) { return a.n + 1; }));
    const auto first = run(built->get_response(ask("41 + 1?"), options));
    EXPECT_EQ(first.text(), "42");
    const auto again = run(built->get_response(ask("41 + 1?"), options));
    EXPECT_EQ(again.text(), "42") << "the tool loop's two model calls came from the cache";

    auto& loop = dynamic_cast<forma::function_invoking_chat_client&>(*built);
    auto& caching = dynamic_cast<forma::caching_chat_client&>(loop.inner());
    EXPECT_EQ(dynamic_cast<counting_client&>(caching.inner()).requests, 2) << "the model was asked twice, once per turn";
    EXPECT_EQ(caching.hits(), 2u);
    EXPECT_FALSE(watched.expired()) << "the built stack owns the scripted model";
    built.reset();
    EXPECT_TRUE(watched.expired()) << "and releases it with the stack";
}

TEST_F(chat_client_builder_test, a_stream_keeps_an_owned_inner_client_alive_after_the_stack_is_gone) {
    auto model = std::make_shared<forma::testing::scripted_chat_client>(io.get_executor());
    model->add_text_response("still here");
    std::weak_ptr<forma::testing::scripted_chat_client> watched = model;
    std::shared_ptr<forma::chat_client> built =
        forma::chat_client_builder(std::shared_ptr<forma::chat_client>(std::move(model))).use_function_invocation().build();
    forma::update_stream stream = built->get_streaming_response(ask("hi"), {});
    built.reset();
    EXPECT_FALSE(watched.expired()) << "the open stream keeps the model";
    const std::string text = run([&]() -> asio::awaitable<std::string> {
        std::string all;
        while (auto update = co_await stream.next()) all += update->text();
        co_return all;
    }());
    EXPECT_EQ(text, "still here");
}

TEST_F(chat_client_builder_test, missing_parts_are_errors_that_say_which) {
    forma::testing::scripted_chat_client model(io.get_executor());
    EXPECT_THROW(forma::chat_client_builder(std::shared_ptr<forma::chat_client>()), forma::error);
    EXPECT_THROW(forma::chat_client_builder(model).use_cache(nullptr), forma::error);
    EXPECT_THROW(forma::chat_client_builder(model).use(nullptr), forma::error);
    EXPECT_THROW(forma::chat_client_builder(model).use([](auto) { return std::shared_ptr<forma::chat_client>(); }).build(),
                 forma::error);
    EXPECT_EQ(forma::chat_client_builder(model).build().get(), &model) << "nothing added: the client itself";
}
