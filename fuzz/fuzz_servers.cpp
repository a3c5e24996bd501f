// The served world of the server fuzz targets (fuzz_servers.hpp), compiled once.
#include "fuzz_servers.hpp"

#include "net/http_client_stub.hpp"
#include "support/rule_model.hpp"

#include <forma/a2a/server.hpp>
#include <forma/agent/as_tool.hpp>
#include <forma/agent/chat_client_agent.hpp>
#include <forma/agent/in_memory_session_store.hpp>
#include <forma/agent/in_memory_task_store.hpp>
#include <forma/mcp/server.hpp>
#include <forma/model/awaits_input.hpp>
#include <forma/net/http_routes.hpp>
#include <forma/serving/ag_ui_endpoint.hpp>
#include <forma/serving/openai_endpoints.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <map>
#include <optional>

namespace forma_fuzz {

std::vector<std::string> kept_answer::events() const { return forma_test::raw_http::sse_data(body); }

/// What a served_world holds: the agent, its servers and stores, and the ids answers gave.
class served_world::servers {
public:
    servers()
        : model(io.get_executor()),
          tasks(std::make_shared<forma::in_memory_task_store>(io.get_executor(), forma::in_memory_task_store_options{.max_tasks = 16, .max_bytes = 256 * 1024})),
          sessions(std::make_shared<forma::in_memory_session_store>(io.get_executor(), forma::in_memory_session_store_options{.max_sessions = 16, .max_bytes = 256 * 1024})),
          agent(model, {.name = "fuzzed", .tools = {delete_file()}}),
          a2a(agent, {.task_after = std::chrono::milliseconds(50), .tasks = tasks, .sessions = sessions}),
          openai(agent, {.tasks = tasks, .sessions = sessions}),
          ag_ui(agent, {.tasks = tasks, .sessions = sessions}),
          mcp(io.get_executor(), {forma::as_tool(agent)}) {
        routes = a2a.routes();
        routes.add_all(openai.routes()).add_all(ag_ui.routes()).add_all(mcp.routes());
    }

    /// delete_file, which needs approval, counting its runs by call id.
    forma::function_tool delete_file() {
        boost::json::object parameters{{"type", "object"},
                                       {"properties", {{"path", {{"type", "string"}}}}},
                                       {"required", boost::json::array{"path"}},
                                       {"additionalProperties", false}};
        return forma::function_tool("delete_file", "Deletes a file", std::move(parameters),
                                    [this](const forma::tool_invocation& call) -> boost::asio::awaitable<boost::json::value> {
                                        ++tool_runs[call.call.call_id];
                                        co_return boost::json::value("deleted");
                                    },
                                    forma::function_tool_options{.requires_approval = true});
    }

    kept_answer ask(forma::net::server_request request, bool leaves_an_idle_stream) {
        request.target = request.path + (request.query.empty() ? "" : "?" + request.query);
        const int failures_before = model.failures;
        kept_answer answer;
        bool done = false;
        std::exception_ptr escaped;
        boost::asio::cancellation_signal leave;
        io.restart(); // a loop that ran out of work stops until restarted
        boost::asio::co_spawn(io, routes.handle(request, answer), boost::asio::bind_cancellation_slot(leave.slot(), [&](std::exception_ptr e) {
            done = true;
            escaped = e;
        }));
        while (!done) {
            if (io.poll() != 0 || done) continue;
            if (leaves_an_idle_stream && answer.streamed) {
                leave.emit(boost::asio::cancellation_type::terminal);
                continue;
            }
            io.run_one_for(std::chrono::seconds(2)); // a handler waits on a timer
        }
        io.poll(); // what the answer set going (a task's run) goes on to its end
        check(!escaped || answer.streamed, "an exception escaped a handler that had not started streaming");
        check(answer.started(), "a request got no answer");
        if (!valid_utf8_text(answer.body)) {
            std::fprintf(stderr, "%s %s answered: %s\n", request.method.c_str(), request.path.c_str(), answer.body.c_str());
            fail("an answer is not UTF-8");
        }
        if (answer.head.status >= 500)
            check(model.failures > failures_before, "a 5xx answer though the agent did not fail");
        const bool json_body = answer.head.content_type.starts_with("application/json");
        if (json_body && !answer.body.empty()) remember(served_world::parsed(answer.body));
        if (answer.head.content_type.starts_with("text/event-stream"))
            for (const std::string& data : forma_test::raw_http::sse_data(answer.body))
                if (data != "[DONE]") remember(served_world::parsed(data));
        for (const auto& [name, value] : answer.head.headers)
            if (name == "Mcp-Session-Id") add_id(value);
        return answer;
    }

    std::string with_ids(std::string_view text) const {
        std::string out;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '$' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
                const std::size_t n = static_cast<std::size_t>(text[++i] - '0');
                out += n < ids.size() ? ids[n] : std::string("none");
            } else {
                out += text[i];
            }
        }
        return out;
    }

    void check_consistent() {
        io.restart();
        io.poll();
        for (const auto& [call, runs] : tool_runs) check(runs <= 1, "an approved call ran twice");
        check(a2a.running_tasks() == 0, "a run goes on with nothing left to wait for");
        check(tasks->bytes() <= tasks->options().max_bytes, "the task store holds more bytes than its limit");
        check(tasks->size() <= 2 * tasks->options().max_tasks, "the task store holds more tasks than its limits");
        for (const std::string& id : ids) {
            std::optional<forma::agent_task> task;
            bool loaded = false;
            boost::asio::co_spawn(io, tasks->load(id), [&](std::exception_ptr, std::optional<forma::agent_task> t) {
                task = std::move(t);
                loaded = true;
            });
            io.restart();
            io.poll();
            check(loaded, "a load from the task store did not end");
            if (!task || task->state != forma::task_state::input_required) continue;
            const forma::agent_response<> asked = forma::last_answer(*task);
            check(!asked.approval_requests().empty() || forma::awaits_input(asked), "a task waits for an answer to nothing");
        }
    }

    boost::asio::io_context io;
    forma_test::rule_model model;
    std::shared_ptr<forma::in_memory_task_store> tasks;
    std::shared_ptr<forma::in_memory_session_store> sessions;
    std::map<std::string, int> tool_runs;
    forma::chat_client_agent agent;
    forma::a2a::server a2a;
    forma::serving::openai_endpoints openai;
    forma::serving::ag_ui_endpoint ag_ui;
    forma::mcp::server mcp;
    forma::net::http_routes routes;
    std::vector<std::string> ids;

private:
    void add_id(const std::string& id) {
        if (id.empty() || ids.size() >= 10) return;
        for (const std::string& known : ids)
            if (known == id) return;
        ids.push_back(id);
    }
    // Every string under "id", "taskId", "contextId" (and an interrupt's id) in an answer.
    void remember(const boost::json::value& v) {
        if (const auto* o = v.if_object()) {
            for (const auto& [key, value] : *o) {
                if ((key == "id" || key == "taskId" || key == "contextId") && value.is_string()) add_id(std::string(value.get_string()));
                remember(value);
            }
        } else if (const auto* a = v.if_array()) {
            for (const auto& item : *a) remember(item);
        }
    }
};

served_world::served_world() : servers_(std::make_unique<servers>()) {}
served_world::~served_world() = default;

kept_answer served_world::ask(forma::net::server_request request, bool leaves_an_idle_stream) {
    return servers_->ask(std::move(request), leaves_an_idle_stream);
}

std::string served_world::with_ids(std::string_view text) const { return servers_->with_ids(text); }

void served_world::check_consistent() { servers_->check_consistent(); }

boost::json::value served_world::parsed(std::string_view text) {
    boost::system::error_code ec;
    boost::json::value v = boost::json::parse(text, ec);
    check(!ec, "an answer that says it is JSON does not parse");
    return v;
}

void check_json_rpc_answer(std::string_view request_body, const kept_answer& answer) {
    boost::system::error_code ec;
    const boost::json::value request = boost::json::parse(request_body, ec);
    const boost::json::value* id = !ec && request.is_object() ? request.get_object().if_contains("id") : nullptr;
    const bool usable_id = id && (id->is_string() || id->is_int64() || id->is_uint64());
    std::vector<std::string> messages;
    if (answer.streamed) {
        messages = answer.events();
    } else if (!answer.body.empty()) {
        messages.push_back(answer.body);
    }
    for (const std::string& text : messages) {
        const boost::json::value reply = served_world::parsed(text);
        const boost::json::object* o = reply.if_object();
        check(o && o->contains("jsonrpc") && o->at("jsonrpc") == "2.0", "a JSON-RPC answer without \"jsonrpc\": \"2.0\"");
        check(o->contains("result") != o->contains("error"), "a JSON-RPC answer needs a result or an error, not both");
        if (const boost::json::value* e = o->if_contains("error")) {
            check(e->is_object() && e->get_object().contains("code") && e->at("code").is_int64() && e->get_object().contains("message") &&
                      e->at("message").is_string(),
                  "a JSON-RPC error without an integer code and a message");
        }
        check(o->contains("id"), "a JSON-RPC answer without an id");
        if (usable_id && answer.head.status == 200 && o->at("id") != *id) {
            std::fprintf(stderr, "request: %.*s\nanswer: %s\n", static_cast<int>(request_body.size()), request_body.data(), text.c_str());
            fail("a JSON-RPC answer with another request's id");
        }
    }
}

forma::net::server_request request_of(std::string method, std::string path, std::string body, std::uint8_t config) {
    forma::net::server_request r;
    r.method = std::move(method);
    const std::size_t question = path.find('?');
    r.path = path.substr(0, question);
    if (question != std::string::npos) r.query = path.substr(question + 1);
    r.body = std::move(body);
    r.headers.emplace_back("Content-Type", (config & 1) ? "text/plain" : "application/json");
    static constexpr const char* versions[] = {nullptr, "1.0", "0.3", "2.0"};
    if (const char* v = versions[(config >> 1) & 3]) r.headers.emplace_back("A2A-Version", v);
    r.caller = (config & 8) ? "bob" : "alice";
    r.local_address = "127.0.0.1:8080";
    r.remote_address = "127.0.0.1:50000";
    return r;
}

} // namespace forma_fuzz
