// Answers to an A2A task that waits for an approval, as raw JSON-RPC in both versions, whole and
// streamed: words that approve or reject (a reason longer than a short string's inline buffer,
// so that AddressSanitizer sees a read of a destroyed one), data parts, both mixed, and answers
// the server must refuse while the task goes on waiting. Then forma's own client, whole and
// streamed, rejecting with words and answering with an approval response content.
#include <forma/a2a.hpp>
#include <forma/model/awaits_input.hpp>

#include "net/http_client_stub.hpp"
#include "support/approval_agent.hpp"
#include "support/bounded_run.hpp"
#include "support/co_assert.hpp"
#include "support/running_server.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <functional>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace raw_http = forma_test::raw_http;
using namespace std::chrono_literals;
using forma::a2a::protocol_version;

constexpr std::string_view long_reason = "no, do not delete notes.txt: it holds the minutes of the board meeting";

struct wire {
    protocol_version version;
    bool streamed;

    bool v1() const { return version == protocol_version::v1_0; }
    std::string method() const {
        if (v1()) return streamed ? "SendStreamingMessage" : "SendMessage";
        return streamed ? "message/stream" : "message/send";
    }
    std::string text_part(std::string_view text) const {
        const json::string quoted(text);
        return v1() ? "{\"text\":" + json::serialize(quoted) + "}" : "{\"kind\":\"text\",\"text\":" + json::serialize(quoted) + "}";
    }
    std::string data_part(std::string_view data) const {
        return v1() ? "{\"data\":" + std::string(data) + "}" : "{\"kind\":\"data\",\"data\":" + std::string(data) + "}";
    }
    std::string message(std::string_view parts, std::string_view task_id, bool streamed_here) const {
        std::string method = streamed_here ? this->method() : (v1() ? "SendMessage" : "message/send");
        std::string message = v1() ? R"({"messageId":"m","role":"ROLE_USER","parts":[)" : R"({"kind":"message","messageId":"m","role":"user","parts":[)";
        message += std::string(parts) + "]";
        if (!task_id.empty()) message += ",\"taskId\":\"" + std::string(task_id) + "\"";
        message += "}";
        return R"({"jsonrpc":"2.0","id":7,"method":")" + method + R"(","params":{"message":)" + message + "}}";
    }
    std::string header() const { return v1() ? "A2A-Version: 1.0\r\n" : ""; }
};

/// An answer as the client read it: the task's state and text, or the JSON-RPC error's code.
struct outcome {
    std::string state; // 0.3 names: "completed", "input-required", ...
    std::string text;
    std::int64_t error = 0;
    std::string error_message;
};

std::string state_name(std::string_view s) {
    if (!s.starts_with("TASK_STATE_")) return std::string(s);
    std::string out(s.substr(11));
    for (char& c : out) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string parts_text(const json::value& parts) {
    std::string text;
    for (const auto& p : parts.as_array())
        if (const auto* t = p.as_object().if_contains("text")) text += t->as_string();
    return text;
}

// One JSON-RPC result (either version) into `o`.
void read_result(const json::value& reply, outcome& o) {
    if (const auto* e = reply.as_object().if_contains("error")) {
        o.error = e->at("code").as_int64();
        o.error_message = e->at("message").as_string();
        return;
    }
    const json::object& result = reply.at("result").as_object();
    const json::object* item = &result;
    if (result.size() == 1 && !result.contains("kind")) item = &result.begin()->value().as_object(); // 1.0: {"task": ...}
    const std::string key = result.size() == 1 && !result.contains("kind") ? std::string(result.begin()->key()) : std::string(result.at("kind").as_string());
    if (key == "message") {
        o.state = "completed";
        o.text = parts_text(item->at("parts"));
    } else if (key == "task" || key == "status-update" || key == "statusUpdate") {
        o.state = state_name(item->at("status").at("state").as_string());
        if (const auto* artifacts = item->if_contains("artifacts"))
            for (const auto& a : artifacts->as_array()) o.text += parts_text(a.at("parts"));
    } else if (key == "artifact-update" || key == "artifactUpdate") {
        o.text += parts_text(item->at("artifact").at("parts"));
    }
}

asio::awaitable<outcome> send(unsigned short port, const wire& w, std::string body) {
    const raw_http::response r = co_await raw_http::exchange(port, raw_http::post("/a2a", body, w.header()));
    outcome o;
    if (r[boost::beast::http::field::content_type].starts_with("text/event-stream")) {
        for (const std::string& data : raw_http::sse_data(r.body())) read_result(json::parse(data), o);
    } else {
        read_result(json::parse(r.body()), o);
    }
    co_return o;
}

asio::awaitable<std::string> task_id_asked(unsigned short port, const wire& w) {
    const raw_http::response r = co_await raw_http::exchange(port, raw_http::post("/a2a", w.message(w.text_part("delete notes.txt"), "", false), w.header()));
    const json::value reply = json::parse(r.body());
    const json::value& task = w.v1() ? reply.at("result").at("task") : reply.at("result");
    co_return std::string(task.at("id").as_string());
}

asio::awaitable<std::string> state_of_task(unsigned short port, const wire& w, const std::string& id) {
    const std::string method = w.v1() ? "GetTask" : "tasks/get";
    const raw_http::response r = co_await raw_http::exchange(
        port, raw_http::post("/a2a", R"({"jsonrpc":"2.0","id":9,"method":")" + method + R"(","params":{"id":")" + id + R"("}})", w.header()));
    co_return state_name(json::parse(r.body()).at("result").at("status").at("state").as_string());
}

// The text of the tool result the model read after the answer, or "" when it was not asked again.
std::string tool_result_seen(const forma_test::approval_agent& files) {
    const auto& requests = files.model.requests();
    if (requests.size() < 2) return "";
    for (const auto& m : requests.back().messages)
        for (const auto& c : m.contents)
            if (const auto* r = std::get_if<forma::function_result_content>(&c)) return json::serialize(r->result);
    return "";
}

// Whether the model's last request carried `text` in a user message.
bool user_said(const forma_test::approval_agent& files, std::string_view text) {
    for (const auto& m : files.model.requests().back().messages)
        if (m.role == forma::chat_role::user() && m.text().find(text) != std::string::npos) return true;
    return false;
}

class A2aApprovalAnswers : public ::testing::TestWithParam<wire> {
protected:
    // Asks for the approval of delete_file, answers with `parts`, and reads the outcome.
    struct answered {
        outcome o;
        std::vector<std::string> deleted;
        std::string tool_result;
        bool user_said_thanks = false;
        std::string state_after; // the task's state read again after the answer
    };

    answered answer_with(const std::function<std::string(const wire&)>& parts) {
        asio::io_context io;
        forma_test::approval_agent files(io);
        files.calls().says("Done as you said");
        forma::a2a::server a2a(files.agent);
        answered out;
        forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
            forma_test::running_server s(io, a2a.routes());
            const std::string id = co_await task_id_asked(s.port(), GetParam());
            out.o = co_await send(s.port(), GetParam(), GetParam().message(parts(GetParam()), id, true));
            out.state_after = co_await state_of_task(s.port(), GetParam(), id);
            co_await s.finish();
        }(), 30s);
        out.deleted = files.deleted;
        out.tool_result = tool_result_seen(files);
        out.user_said_thanks = files.model.requests().size() > 1 && user_said(files, "thanks for asking");
        return out;
    }
};

INSTANTIATE_TEST_SUITE_P(Wires, A2aApprovalAnswers,
                         ::testing::Values(wire{protocol_version::v1_0, false}, wire{protocol_version::v1_0, true},
                                           wire{protocol_version::v0_3, false}, wire{protocol_version::v0_3, true}),
                         [](const auto& info) {
                             return std::string(info.param.v1() ? "A2a1_0" : "A2a0_3") + (info.param.streamed ? "Streamed" : "Whole");
                         });

TEST_P(A2aApprovalAnswers, WordsThatRejectAreTheReason) {
    const answered a = answer_with([](const wire& w) { return w.text_part(long_reason); });
    EXPECT_EQ(a.o.error, 0) << a.o.error_message;
    EXPECT_EQ(a.o.state, "completed");
    EXPECT_EQ(a.o.text, "Done as you said");
    EXPECT_TRUE(a.deleted.empty());
    EXPECT_EQ(a.tool_result, json::serialize(json::string("rejected: " + std::string(long_reason))));
    EXPECT_EQ(a.state_after, "completed");
}

TEST_P(A2aApprovalAnswers, WordsThatApproveRunTheCall) {
    const answered a = answer_with([](const wire& w) { return w.text_part("Yes, go ahead"); });
    EXPECT_EQ(a.o.state, "completed") << a.o.error_message;
    EXPECT_EQ(a.deleted, std::vector<std::string>{"notes.txt"});
    EXPECT_EQ(a.tool_result, "\"deleted\"");
}

TEST_P(A2aApprovalAnswers, ADataPartApprovesOrRejectsWithItsReason) {
    const answered yes = answer_with([](const wire& w) { return w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":true})"); });
    EXPECT_EQ(yes.o.state, "completed") << yes.o.error_message;
    EXPECT_EQ(yes.deleted, std::vector<std::string>{"notes.txt"});
    const answered no = answer_with([](const wire& w) {
        return w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":false,"reason":"the file is still needed"})");
    });
    EXPECT_EQ(no.o.state, "completed") << no.o.error_message;
    EXPECT_TRUE(no.deleted.empty());
    EXPECT_EQ(no.tool_result, "\"rejected: the file is still needed\"");
}

TEST_P(A2aApprovalAnswers, WordsBesideADataPartThatDecidesReachTheAgent) {
    const answered a = answer_with([](const wire& w) {
        return w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":true})") + "," + w.text_part("thanks for asking");
    });
    EXPECT_EQ(a.o.state, "completed") << a.o.error_message;
    EXPECT_EQ(a.deleted, std::vector<std::string>{"notes.txt"});
    EXPECT_TRUE(a.user_said_thanks);
}

TEST_P(A2aApprovalAnswers, AnswersThatDecideNothingAreRefusedAndTheTaskStillWaits) {
    const std::vector<std::function<std::string(const wire&)>> refused{
        // an approval request the task does not wait for
        [](const wire& w) { return w.data_part(R"({"type":"function_approval_response","id":"call-9","approved":true})"); },
        // "approved" that is not a boolean
        [](const wire& w) { return w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":"yes"})"); },
        // one request answered twice
        [](const wire& w) {
            return w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":true})") + "," +
                   w.data_part(R"({"type":"function_approval_response","id":"call-1","approved":false})");
        },
        // data that answers no request, and no words
        [](const wire& w) { return w.data_part(R"({"note":"hello"})"); },
    };
    for (std::size_t i = 0; i < refused.size(); ++i) {
        const answered a = answer_with(refused[i]);
        EXPECT_EQ(a.o.error, -32602) << "answer " << i << ": " << a.o.state;
        EXPECT_TRUE(a.deleted.empty()) << "answer " << i;
        EXPECT_EQ(a.state_after, "input-required") << "answer " << i;
    }
}

// forma's own client: words, and an approval response content sent as its data part.
class A2aApprovalClient : public ::testing::TestWithParam<protocol_version> {};

INSTANTIATE_TEST_SUITE_P(Versions, A2aApprovalClient, ::testing::Values(protocol_version::v1_0, protocol_version::v0_3),
                         [](const auto& info) { return info.param == protocol_version::v1_0 ? "A2a1_0" : "A2a0_3"; });

TEST_P(A2aApprovalClient, RejectsWithWordsWholeAndStreamed) {
    for (const bool streamed : {false, true}) {
        asio::io_context io;
        forma_test::approval_agent files(io);
        files.calls().says("Kept it");
        forma::a2a::server a2a(files.agent);
        forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
            forma_test::running_server s(io, a2a.routes());
            forma::a2a::agent remote(io.get_executor(), {.base_url = s.base_url(), .poll_interval = 20ms, .speak = GetParam()});
            auto session = remote.create_session();
            const auto asked = co_await remote.run("delete notes.txt", session);
            forma::agent_response<> done;
            if (streamed) {
                auto stream = remote.run_streaming(std::string(long_reason), session);
                std::vector<forma::agent_response_update> updates;
                while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
                done = forma::to_agent_response(updates);
            } else {
                done = co_await remote.run(std::string(long_reason), session);
            }
            co_await s.finish();
            EXPECT_TRUE(forma::awaits_input(asked));
            EXPECT_EQ(done.text(), "Kept it") << (streamed ? "streamed" : "whole");
        }(), 30s);
        EXPECT_TRUE(files.deleted.empty());
        EXPECT_EQ(tool_result_seen(files), json::serialize(json::string("rejected: " + std::string(long_reason))));
    }
}

TEST_P(A2aApprovalClient, SendsAnApprovalResponseAsItsDataPart) {
    asio::io_context io;
    forma_test::approval_agent files(io);
    files.calls().says("Deleted it");
    forma::a2a::server a2a(files.agent);
    forma_test::run_bounded(io, [&]() -> asio::awaitable<void> {
        forma_test::running_server s(io, a2a.routes());
        forma::a2a::agent remote(io.get_executor(), {.base_url = s.base_url(), .poll_interval = 20ms, .speak = GetParam()});
        auto session = remote.create_session();
        (void)co_await remote.run("delete notes.txt", session);
        const forma::function_approval_request_content request("call-1", forma::function_call_content("call-1", "delete_file", {{"path", "notes.txt"}}));
        std::vector<forma::chat_message> answer{forma::chat_message(forma::chat_role::user(), std::vector<forma::content>{request.approve()})};
        const auto done = co_await remote.run(std::move(answer), session);
        co_await s.finish();
        EXPECT_EQ(done.text(), "Deleted it");
    }(), 30s);
    EXPECT_EQ(files.deleted, std::vector<std::string>{"notes.txt"});
}

} // namespace
