// forma against a real model server: llama.cpp's llama-server (built by tools/llama-server) with
// the tiny real model of ../shared/models, over HTTP and HTTPS. The model writes nonsense, but the
// server's grammar holds it to the schema forma sends: every schema of the oracle's corpus and of
// the examples is accepted in both dialects and read back typed, whole and streamed; the
// server's own failures arrive as typed errors.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/json/to_json.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/testing/self_signed_certificate.hpp>

#include "oracle/corpus_types.hpp"
#include "example_types.hpp"
#include "support/bounded_run.hpp"
#include "support/scratch_directory.hpp"
#include "support/server_process.hpp"

#include <boost/mp11/algorithm.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// The server's certificate and key in files, removed with it.
struct certificate_files {
    forma_test::scratch_directory dir{"forma-llama"};
    forma::testing::certificate_pem pem = forma::testing::make_self_signed_certificate();
    std::filesystem::path certificate_file = dir.file("cert.pem", pem.certificate);
    std::filesystem::path key_file = dir.file("key.pem", pem.private_key);
};

// llama-server on a free loopback port (another if that was taken before it bound it), one
// thread, the model's whole training context.
class llama_server {
public:
    explicit llama_server(bool tls, std::vector<std::string> args_added = {}) {
        if (tls) files_.emplace();
        forma_test::on_a_free_port([&](unsigned short port) {
            port_ = port;
            std::vector<std::string> args{"-m", FORMA_TEST_MODEL, "--host", "127.0.0.1", "--port", std::to_string(port_),
                                          "-t", "1", "-c", "2048", "-np", "1"};
            args.insert(args.end(), args_added.begin(), args_added.end());
            if (tls)
                args.insert(args.end(), {"--ssl-cert-file", files_->certificate_file.string(), "--ssl-key-file",
                                         files_->key_file.string()});
            process_.emplace(FORMA_LLAMA_SERVER, std::move(args), "listening on");
        });
    }

    forma::openai::client_options client_options() const {
        forma::openai::client_options o{.base_url = std::string(files_ ? "https" : "http") + "://127.0.0.1:" +
                                                    std::to_string(port_) + "/v1",
                                        .model = "stories260K"};
        if (files_) o.trust.ca_certificates = files_->pem.certificate;
        o.retry.max_retries = 0;
        o.timeouts.idle = 60s;
        return o;
    }

    /// The same server for the Anthropic client (llama-server's /v1/messages).
    forma::anthropic::client_options anthropic_options() const {
        const forma::openai::client_options o = client_options();
        return {.base_url = o.base_url, .model = o.model, .trust = o.trust, .timeouts = o.timeouts, .retry = o.retry};
    }

    void kill() { process_->kill(); }

    /// What the server has logged so far.
    std::string log() const { return process_->output(); }

private:
    unsigned short port_ = 0;
    std::optional<certificate_files> files_;
    std::optional<forma_test::server_process> process_;
};

// Greedy and short: the answers are the same run after run, and never long.
forma::chat_options greedy(std::int64_t max_tokens = 1000) {
    forma::chat_options o;
    o.temperature = 0.0;
    o.max_output_tokens = max_tokens;
    return o;
}

std::vector<forma::chat_message> ask(std::string text) {
    return {forma::chat_message(forma::chat_role::user(), std::move(text))};
}

// How a schema fared: the server took it, its answer was read as the type (or why not).
struct verdict {
    bool accepted = false;
    bool typed = false;
    bool disagrees = false; // the answer broke what the schema says: forma's reader and schema differ
    std::string note;
};

// A json_error that a grammar made from the schema cannot cause: the answer's JSON or its types
// (a wrong type, a number the schema allows and the type cannot hold) rather than a keyword the
// server does not enforce (formats, lengths in strict mode, exclusive bounds).
bool schema_and_reader_disagree(const forma::json_error& e) {
    const std::string& reason = e.reason();
    return reason.starts_with("expected") || reason.find("does not fit") != std::string::npos;
}

template <class T>
verdict try_type(asio::io_context& io, forma::openai::chat_client& client, bool strict) {
    verdict v;
    forma::chat_options options = greedy();
    options.response_format = forma::response_format::for_type<T>(strict);
    try {
        const forma::agent_response<> r = forma_test::run_bounded(io, client.get_response(ask("Once upon a time"), options), 60s);
        v.accepted = true;
        // result(), not try_result(): some of the corpus's types cannot be copied.
        const forma::agent_response<T> answer(r, forma::response_format::wraps<T>());
        try {
            (void)answer.result();
            v.typed = true;
        } catch (const forma::json_error& e) {
            v.note = e.what();
            v.disagrees = schema_and_reader_disagree(e);
        } catch (const std::exception& e) {
            v.note = e.what();
        }
    } catch (const std::exception& e) {
        v.note = e.what();
    }
    return v;
}

template <class T>
std::string type_label() {
    return std::string(forma::schema_name<T>());
}

using example_roots = boost::mp11::mp_list<example::person, example::contact_card, example::support_ticket>;
using all_roots = boost::mp11::mp_append<oracle::corpus_roots, example_roots>;

class real_server : public ::testing::TestWithParam<bool> {
protected:
    real_server() : server_(GetParam()), client_(io_.get_executor(), server_.client_options()) {}

    asio::io_context io_;
    llama_server server_;
    forma::openai::chat_client client_;
};

std::string transport_name(const ::testing::TestParamInfo<bool>& info) { return info.param ? "https" : "http"; }

TEST_P(real_server, every_schema_is_accepted_in_both_dialects_and_answers_are_read_typed) {
    int total = 0, accepted = 0, typed = 0;
    std::string refused, unread, disagreements;
    for (const bool strict : {true, false}) {
        boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, all_roots>>([&](auto root) {
            using T = typename decltype(root)::type;
            const verdict v = try_type<T>(io_, client_, strict);
            ++total;
            const std::string where = type_label<T>() + (strict ? " (strict)" : " (2020-12)");
            if (v.accepted) ++accepted;
            else refused += "\n  " + where + ": " + v.note;
            if (v.typed) ++typed;
            else if (v.accepted) unread += "\n  " + where + ": " + v.note;
            if (v.disagrees) disagreements += "\n  " + where + ": " + v.note;
        });
    }
    std::printf("schemas accepted %d/%d, answers read typed %d/%d%s%s\n", accepted, total, typed, total,
                unread.empty() ? "" : "; not read:", unread.c_str());
    EXPECT_EQ(accepted, total) << "refused:" << refused;
    // What the server's grammar enforces, forma reads: an answer is left unread only for what the
    // grammar does not hold (formats, exclusive bounds, lengths strict mode keeps in descriptions),
    // for its length, or for a null root.
    EXPECT_TRUE(disagreements.empty()) << "answers valid for the schema sent that forma could not read:" << disagreements;
    EXPECT_GE(typed, total * 3 / 4);
}

// The same greedy run, whole and streamed, validation retries included: the same answer.
template <class T>
forma::agent_response<T> expect_streamed_equals_whole(asio::io_context& io, forma::chat_client_agent& agent,
                                                      const std::string& prompt = "Once upon a time") {
    SCOPED_TRACE(type_label<T>());
    const forma::agent_response<T> whole = forma_test::run_bounded(io, agent.run<T>(prompt), 60s);
    auto stream = agent.run_streaming<T>(prompt);
    const forma::agent_response<T> streamed = forma_test::run_bounded(
        io,
        [&]() -> asio::awaitable<forma::agent_response<T>> {
            for (;;) {
                std::optional<forma::structured_update<T>> event = co_await stream.next();
                if (event && event->is_final()) co_return event->response();
            }
        }(),
        60s);
    EXPECT_EQ(streamed.text(), whole.text());
    EXPECT_EQ(streamed.messages.size(), whole.messages.size());
    const auto whole_result = whole.try_result();
    const auto streamed_result = streamed.try_result();
    EXPECT_EQ(whole_result.has_value(), streamed_result.has_value());
    if (whole_result && streamed_result) {
        EXPECT_EQ(forma::to_json(*streamed_result), forma::to_json(*whole_result));
    }
    return whole;
}

TEST_P(real_server, run_and_run_streaming_give_the_same_typed_answer_for_each_example_type) {
    forma::chat_client_agent agent(client_, {.name = "storyteller", .chat_options = greedy()});
    expect_streamed_equals_whole<example::person>(io_, agent);
    expect_streamed_equals_whole<example::contact_card>(io_, agent);
    expect_streamed_equals_whole<example::support_ticket>(io_, agent);
}

// strict mode keeps maxLength in the description, and the server's grammar does not hold it:
// forma's own check finds the two-letter country too long and asks again, once by default.
TEST_P(real_server, a_constraint_the_server_does_not_enforce_is_checked_and_retried) {
    forma::chat_client_agent agent(client_, {.name = "storyteller", .chat_options = greedy()});
    const forma::agent_response<oracle::address> r =
        forma_test::run_bounded(io_, agent.run<oracle::address>("Once upon a time"), 60s);
    int feedback = 0;
    for (const forma::chat_message& m : r.messages)
        for (const forma::content& c : m.contents)
            if (std::holds_alternative<forma::output_errors_content>(c)) ++feedback;
    EXPECT_EQ(feedback, 1) << "one validation retry, with forma's findings";
    const auto result = r.try_result();
    if (!result) {
        const auto e = result.error().as<forma::json_error>();
        ASSERT_TRUE(e) << result.error().what();
        EXPECT_EQ(e->path(), "/country") << e->what();
    }
}

// A prompt of 3,000 words against a context of 2,048 tokens: the server's 400, typed, on either API.
void expect_a_prompt_past_the_context_refused(asio::io_context& io, forma::chat_client& client) {
    std::string prompt;
    for (int i = 0; i < 3000; ++i) prompt += "word ";
    try {
        (void)forma_test::run_bounded(io, client.get_response(ask(prompt), greedy()), 60s);
        ADD_FAILURE() << "a prompt of 3,000 words fit a context of 2,048 tokens";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 400);
        EXPECT_EQ(e.type(), "exceed_context_size_error") << e.what();
        EXPECT_NE(std::string(e.what()).find("exceeds the available context size"), std::string::npos) << e.what();
    }
}

TEST_P(real_server, a_prompt_past_the_context_is_an_http_error_400_saying_so) {
    expect_a_prompt_past_the_context_refused(io_, client_);
}

TEST_P(real_server, content_the_model_cannot_take_is_an_http_error_500_with_the_servers_words) {
    std::vector<forma::chat_message> messages = ask("What is in this picture?");
    messages.front().contents.emplace_back(forma::data_content(std::vector<std::byte>(16, std::byte{1}), "image/png"));
    try {
        (void)forma_test::run_bounded(io_, client_.get_response(std::move(messages), greedy()), 60s);
        ADD_FAILURE() << "a text-only model took an image";
    } catch (const forma::http_error& e) {
        EXPECT_EQ(e.status(), 500);
        EXPECT_NE(std::string(e.what()).find("image input is not supported"), std::string::npos) << e.what();
    }
}

TEST_P(real_server, a_server_killed_mid_stream_ends_the_stream_with_a_typed_error) {
    forma::update_stream stream = client_.get_streaming_response(ask("Once upon a time"), greedy(2000));
    try {
        forma_test::run_bounded(
            io_,
            [&]() -> asio::awaitable<void> {
                std::optional<forma::agent_response_update> first = co_await stream.next();
                EXPECT_TRUE(first.has_value());
                server_.kill();
                while (co_await stream.next()) {
                }
            }(),
            60s);
        ADD_FAILURE() << "the stream ended as if whole";
    } catch (const forma::transport_error& e) {
        EXPECT_EQ(e.kind(), forma::transport_error_kind::closed) << e.what();
        EXPECT_FALSE(e.before_response()) << e.what();
    } catch (const forma::stream_error& e) {
        EXPECT_EQ(e.kind(), forma::stream_error_kind::incomplete) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(llama, real_server, ::testing::Bool(), transport_name);

// The server with a chat template that has a tool-call syntax (see story_tool_calls.jinja).
class tool_calling_server : public ::testing::TestWithParam<bool> {
protected:
    tool_calling_server()
        : server_(GetParam(), {"--chat-template-file", FORMA_TOOL_CALL_TEMPLATE}),
          client_(io_.get_executor(), server_.client_options()) {}

    asio::io_context io_;
    llama_server server_;
    forma::openai::chat_client client_;
};

// The model writes stories; asked for a person in tool mode, with no response format sent, it
// can only answer with one call of final_result holding schema-valid arguments if the server
// forces that call: it takes tool_choice "required" (a named choice it would answer with a
// warning and "auto") and, with parallel_tool_calls false, ends the answer after one call.
TEST_P(tool_calling_server, tool_output_mode_is_one_forced_call_of_final_result_read_typed_whole_and_streamed) {
    forma::chat_options options = greedy();
    options.structured_output_mode = forma::structured_output_mode::tool;
    forma::chat_client_agent agent(client_, {.name = "storyteller", .chat_options = options});
    const forma::agent_response<example::person> whole =
        expect_streamed_equals_whole<example::person>(io_, agent, "Who is Lily?");
    const auto person = whole.try_result();
    EXPECT_TRUE(person.has_value()) << whole.text();
    EXPECT_TRUE(whole.finish_reason == forma::finish_reason::stop()) << "the answer ended after its one call";
    const std::string log = server_.log();
    EXPECT_EQ(log.find("Wrong type supplied for parameter 'tool_choice'"), std::string::npos) << log;
    EXPECT_EQ(log.find("Wrong type supplied for parameter 'parallel_tool_calls'"), std::string::npos) << log;
}

INSTANTIATE_TEST_SUITE_P(llama, tool_calling_server, ::testing::Bool(), transport_name);

// The Anthropic client against llama-server's /v1/messages, with the tool-call template. The
// server ignores output_config, so a typed answer goes in tool mode: one forced call of final_result.
class messages_server : public ::testing::TestWithParam<bool> {
protected:
    messages_server()
        : server_(GetParam(), {"--chat-template-file", FORMA_TOOL_CALL_TEMPLATE}),
          client_(io_.get_executor(), tool_mode(server_.anthropic_options())) {}

    static forma::anthropic::client_options tool_mode(forma::anthropic::client_options o) {
        o.structured_output_mode = forma::structured_output_mode::tool;
        return o;
    }

    asio::io_context io_;
    llama_server server_;
    forma::anthropic::messages_client client_;
};

TEST_P(messages_server, a_greedy_answer_whole_and_streamed_is_the_same_text_and_usage) {
    const forma::agent_response<> whole = forma_test::run_bounded(io_, client_.get_response(ask("Once upon a time"), greedy(40)), 60s);
    EXPECT_FALSE(whole.text().empty());
    ASSERT_TRUE(whole.usage);
    EXPECT_GT(whole.usage->input_token_count.value_or(0), 0);
    forma::update_stream stream = client_.get_streaming_response(ask("Once upon a time"), greedy(40));
    const forma::agent_response<> streamed = forma_test::run_bounded(
        io_,
        [&]() -> asio::awaitable<forma::agent_response<>> {
            forma::agent_response_builder builder;
            while (auto update = co_await stream.next()) builder.add(std::move(*update));
            co_return builder.take();
        }(),
        60s);
    EXPECT_EQ(streamed.text(), whole.text());
    EXPECT_EQ(streamed.finish_reason, whole.finish_reason);
    ASSERT_TRUE(streamed.usage);
    EXPECT_EQ(streamed.usage->output_token_count, whole.usage->output_token_count);
    EXPECT_GT(forma_test::run_bounded(io_, client_.count_tokens(ask("Once upon a time")), 60s), 0);
}

// llama-server's /v1/messages drops disable_parallel_tool_use (and output_config): forced to call
// final_result, the model calls it again and again to the token limit. forma reports that as what it
// is: an answer cut by the limit (streamed: broken JSON, found as it comes), never a value read from it.
TEST_P(messages_server, a_typed_answer_in_tool_mode_runs_to_the_limit_there_and_is_a_typed_error) {
    forma::chat_client_agent agent(client_, {.name = "storyteller", .chat_options = greedy(200), .max_output_retries = 0});
    const forma::agent_response<example::person> whole =
        forma_test::run_bounded(io_, agent.run<example::person>("Who is Lily?"), 60s);
    EXPECT_EQ(whole.finish_reason, forma::finish_reason::length());
    const auto result = whole.try_result();
    ASSERT_FALSE(result.has_value()) << whole.text();
    EXPECT_TRUE(result.error().as<forma::output_truncated_error>()) << result.error().what();
    // Streamed, the second call's input breaks the answer's JSON first: a json_error as soon as it does.
    auto stream = agent.run_streaming<example::person>("Who is Lily?");
    try {
        forma_test::run_bounded(
            io_,
            [&]() -> asio::awaitable<void> {
                while (co_await stream.next()) {
                }
            }(),
            60s);
        ADD_FAILURE() << "the stream read a value";
    } catch (const forma::json_error&) {
    } catch (const forma::output_truncated_error&) {
    }
}

TEST_P(messages_server, an_answer_cut_at_its_limit_is_a_typed_error_and_a_long_prompt_a_400) {
    forma::chat_client_agent agent(client_, {.name = "storyteller", .chat_options = greedy(3), .max_output_retries = 0});
    const forma::agent_response<example::person> cut =
        forma_test::run_bounded(io_, agent.run<example::person>("Who is Lily?"), 60s);
    const auto result = cut.try_result();
    ASSERT_FALSE(result.has_value()) << cut.text();
    EXPECT_TRUE(result.error().as<forma::output_truncated_error>() || result.error().as<forma::json_error>())
        << result.error().what();

    expect_a_prompt_past_the_context_refused(io_, client_);
}

INSTANTIATE_TEST_SUITE_P(llama, messages_server, ::testing::Bool(), transport_name);

TEST(real_server_gone, a_server_that_is_not_running_is_a_connect_error) {
    asio::io_context io;
    forma::openai::chat_client client(io.get_executor(), {.base_url = "http://127.0.0.1:" +
                                                                      std::to_string(forma_test::free_port()) + "/v1",
                                                          .model = "stories260K"});
    try {
        (void)forma_test::run_bounded(io, client.get_response(ask("Once upon a time"), greedy()), 60s);
        ADD_FAILURE() << "an answer from no server";
    } catch (const forma::transport_error& e) {
        EXPECT_EQ(e.kind(), forma::transport_error_kind::connect) << e.what();
    }
}

} // namespace
