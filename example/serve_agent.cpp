// Serving an agent: one typed agent, whose refund tool needs approval, over AG-UI, A2A, MCP and
// OpenAI-compatible endpoints at once on one port, with a web page (serve_agent.html) that talks
// AG-UI to it: type, watch the answer stream in and the tool calls go by, approve or reject.
//
//   serve_agent [port]        serves until Ctrl-C (port 8080 by default): open http://127.0.0.1:<port>/
//   serve_agent --self-test   serves on a free port, calls itself over each protocol with forma's
//                             own clients (and a plain HTTP POST for AG-UI), prints what came
//                             back, and stops
//
// The model: the OpenAI-compatible service when OPENAI_API_KEY or OPENAI_BASE_URL is set, else
// forma's local model server, which calls the first tool offered, then answers in the format.
#include "example_support.hpp"

#include <forma/a2a.hpp>
#include <forma/forma.hpp>
#include <forma/mcp.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct refund_request {
    std::string order_id;
    double amount = 0;
};
BOOST_DESCRIBE_STRUCT(refund_request, (), (order_id, amount))
FORMA_DESCRIBE_FIELDS(refund_request, (order_id, .description = "The order to refund"), (amount, .minimum = 0));

struct order_query {
    std::string order_id;
};
BOOST_DESCRIBE_STRUCT(order_query, (), (order_id))

// The typed answer every run ends with.
struct refund_answer {
    std::string order_id;
    bool refunded = false;
    std::string message;
};
BOOST_DESCRIBE_STRUCT(refund_answer, (), (order_id, refunded, message))
FORMA_DESCRIBE_FIELDS(refund_answer, (message, .description = "What to tell the customer"));

std::string issue_refund(const refund_request& r) {
    std::ostringstream out;
    out << "refunded " << r.amount << " for order " << r.order_id;
    std::cout << "       (the refund tool ran, approved: " << out.str() << ")\n";
    return out.str();
}

std::string order_status(const order_query& q) { return "order " + q.order_id + ": delivered, reported damaged"; }

// Everything served on one port: the page, AG-UI, A2A, MCP and the OpenAI endpoints. The
// servers share one task store and one session store, as a fleet would share Redis ones.
class refund_desk {
public:
    refund_desk(boost::asio::io_context& io, forma::chat_client& model)
        : tasks_(std::make_shared<forma::in_memory_task_store>(io.get_executor())),
          sessions_(std::make_shared<forma::in_memory_session_store>(io.get_executor())),
          agent_(model, {.name = "refund_desk",
                         .description = "Refunds damaged orders, with a person's approval",
                         .instructions = "Look after the customer's order: refund it when it arrived damaged.",
                         .tools = {refund_tool_, status_tool_}}),
          ag_ui_(agent_, {.answer_format = answer_format(), .tasks = tasks_, .sessions = sessions_}),
          a2a_(agent_, {.answer_format = answer_format(), .push_notifications = push_notifications(), .tasks = tasks_, .sessions = sessions_}),
          openai_(agent_, {.model = "refund-desk", .tasks = tasks_, .sessions = sessions_}),
          mcp_(io.get_executor(), {status_tool_}, {.name = "refund-desk"}) {}

    forma::net::http_routes routes() const {
        forma::net::http_routes all;
        all.add("GET", "/", [](forma::net::server_request&, forma::net::response_writer& w) -> boost::asio::awaitable<void> {
            forma::net::http_reply reply{.status = 200, .content_type = "text/html; charset=utf-8", .body = page()};
            co_await w.send(std::move(reply));
        });
        all.add_all(ag_ui_.routes()).add_all(a2a_.routes()).add_all(mcp_.routes()).add_all(openai_.routes());
        return all;
    }

private:
    static forma::response_format answer_format() { return forma::response_format::for_type<refund_answer>(); }

    // A2A webhooks: this server listens on loopback only, so its callers are on this machine,
    // and their webhooks may be too. A server reached from outside keeps the default (public
    // addresses only).
    static forma::a2a::push_notification_options push_notifications() {
        return {.enabled = true, .allow_address = [](const boost::asio::ip::address& a) {
                    return a.is_loopback() || forma::a2a::is_public_address(a);
                }};
    }

    static std::string page() {
        std::ifstream file(FORMA_EXAMPLE_DIR "/serve_agent.html");
        std::ostringstream text;
        text << file.rdbuf();
        return text.str();
    }

    std::shared_ptr<forma::task_store> tasks_;
    std::shared_ptr<forma::session_store> sessions_;
    forma::function_tool refund_tool_ = forma::make_tool("issue_refund", "Refunds an order", issue_refund, {.requires_approval = true});
    forma::function_tool status_tool_ = forma::make_tool("order_status", "Where an order is", order_status);
    forma::chat_client_agent agent_;
    forma::serving::ag_ui_endpoint ag_ui_;
    forma::a2a::server a2a_;
    forma::serving::openai_endpoints openai_;
    forma::mcp::server mcp_;
};

// ---- The self-test: a client of each protocol ----------------------------------------------

// The events of an AG-UI run: a plain POST, read whole (the stream ends with the run).
boost::asio::awaitable<std::vector<boost::json::object>> ag_ui_run(unsigned short port, const boost::json::object& input) {
    namespace http = boost::beast::http;
    boost::beast::tcp_stream stream(co_await boost::asio::this_coro::executor);
    const boost::asio::ip::tcp::endpoint server(boost::asio::ip::address_v4::loopback(), port);
    co_await stream.async_connect(server, boost::asio::use_awaitable);
    http::request<http::string_body> request{http::verb::post, "/ag-ui", 11};
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::content_type, "application/json");
    request.set(http::field::accept, "text/event-stream");
    request.body() = boost::json::serialize(input);
    request.prepare_payload();
    co_await http::async_write(stream, request, boost::asio::use_awaitable);
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> response;
    co_await http::async_read(stream, buffer, response, boost::asio::use_awaitable);
    std::vector<boost::json::object> events;
    std::istringstream lines(response.body());
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("data: ")) events.push_back(boost::json::parse(line.substr(6)).as_object());
    co_return events;
}

// The event types in order, a repeated one once.
std::string types_of(const std::vector<boost::json::object>& events) {
    std::string out;
    std::string previous;
    for (const auto& e : events) {
        const std::string type(e.at("type").as_string());
        if (type != previous) out += (out.empty() ? "" : " ") + type;
        previous = type;
    }
    return out;
}

boost::asio::awaitable<void> call_over_ag_ui(unsigned short port) {
    boost::json::object input{{"threadId", "thread-1"},
                              {"runId", "run-1"},
                              {"messages", boost::json::array{{{"id", "m1"}, {"role", "user"}, {"content", "Refund order A-1042, it arrived broken"}}}}};
    const auto asked = co_await ag_ui_run(port, input);
    std::cout << "AG-UI  " << types_of(asked) << '\n';
    const boost::json::value& interrupt = asked.back().at("outcome").at("interrupts").at(0);
    std::cout << "AG-UI  interrupt " << std::string_view(interrupt.at("reason").as_string()) << " of "
              << std::string_view(asked.at(1).at("toolCallName").as_string()) << ' ' << std::string_view(asked.at(2).at("delta").as_string())
              << ": approve\n";
    input["runId"] = "run-2";
    input["resume"] = boost::json::array{{{"interruptId", interrupt.at("id")}, {"status", "resolved"}, {"payload", {{"approved", true}}}}};
    const auto resumed = co_await ag_ui_run(port, input);
    std::cout << "AG-UI  " << types_of(resumed) << '\n';
    for (const auto& e : resumed)
        if (e.at("type") == "STATE_SNAPSHOT") std::cout << "AG-UI  state " << boost::json::serialize(e.at("snapshot")) << '\n';
}

boost::asio::awaitable<void> call_over_a2a(const std::string& base_url) {
    const auto executor = co_await boost::asio::this_coro::executor;
    forma::a2a::agent remote(executor, {.base_url = base_url});
    co_await remote.connect();
    auto session = remote.create_session();
    const auto asked = co_await remote.run("Refund order B-77, the box was crushed", session);
    std::cout << "A2A    " << remote.card().name << " asks: " << (forma::awaits_input(asked) ? "approval" : "nothing") << '\n';
    const forma::agent_response<refund_answer> done = co_await remote.run<refund_answer>("approve", session);
    std::cout << "A2A    refund_answer{order_id: " << done.result().order_id << ", refunded: " << std::boolalpha << done.result().refunded
              << "}\n";
}

boost::asio::awaitable<void> call_over_mcp(const std::string& base_url) {
    const auto executor = co_await boost::asio::this_coro::executor;
    forma::mcp::client tools(executor, forma::mcp::make_http_transport(executor, {.url = base_url + "/mcp", .listen = false}));
    co_await tools.connect();
    for (const forma::mcp::tool_info& tool : co_await tools.list_tools()) std::cout << "MCP    tool " << tool.name << '\n';
    boost::json::object order{{"order_id", "A-1042"}};
    const forma::mcp::call_result status = co_await tools.call_tool("order_status", std::move(order));
    std::cout << "MCP    " << status.text() << '\n';
    co_await tools.close();
}

boost::asio::awaitable<void> call_over_openai(const std::string& base_url) {
    const auto executor = co_await boost::asio::this_coro::executor;
    forma::openai::chat_client model(executor, {.base_url = base_url + "/v1", .api_key = "unused", .model = "refund-desk"});
    std::vector<forma::chat_message> conversation{forma::chat_message(forma::chat_role::user(), "Refund order C-5, it came in pieces")};
    const auto asked = co_await model.get_response(conversation);
    // The refund waits for approval: it comes back as a tool call, answered by {"approved": true}.
    std::cout << "OpenAI finish reason " << (asked.finish_reason ? asked.finish_reason->value() : "none") << '\n';
    for (const forma::chat_message& m : asked.messages) {
        conversation.push_back(m);
        for (const forma::content& c : m.contents)
            if (const auto* call = std::get_if<forma::function_call_content>(&c)) {
                std::cout << "OpenAI tool call " << call->name << ": approve\n";
                conversation.emplace_back(forma::chat_role::tool(),
                                          std::vector<forma::content>{forma::function_result_content(call->call_id, R"({"approved":true})")});
            }
    }
    const auto done = co_await model.get_response(conversation);
    std::cout << "OpenAI answered: " << done.text() << '\n';
}

boost::asio::awaitable<void> self_test(boost::asio::io_context& io, forma::chat_client& model) {
    refund_desk desk(io, model);
    forma::net::http_server server(io.get_executor(), desk.routes());
    server.listen({});
    const std::string base_url = "http://127.0.0.1:" + std::to_string(server.port());
    std::cout << "Serving refund_desk on one port: / (the page), /ag-ui, /a2a, /mcp, /v1\n";
    boost::asio::steady_timer ended(io, boost::asio::steady_timer::time_point::max());
    boost::asio::co_spawn(io, server.run(), [&](std::exception_ptr) { ended.cancel(); });
    co_await call_over_ag_ui(server.port());
    co_await call_over_a2a(base_url);
    co_await call_over_mcp(base_url);
    co_await call_over_openai(base_url);
    server.stop();
    co_await ended.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable)); // every connection closed
}

// ---- Serving until Ctrl-C -----------------------------------------------------------------

void serve_until_stopped(boost::asio::io_context& io, forma::chat_client& model, unsigned short port) {
    refund_desk desk(io, model);
    boost::asio::cancellation_signal stop;
    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code ec, int) {
        if (!ec) stop.emit(boost::asio::cancellation_type::terminal);
    });
    boost::asio::co_spawn(io,
                          forma::net::serve(io.get_executor(), {"127.0.0.1", port}, desk.routes(), {},
                                            [](unsigned short p) { std::cout << "Open http://127.0.0.1:" << p << "/ (Ctrl-C stops)" << std::endl; }),
                          boost::asio::bind_cancellation_slot(stop.slot(), [&](std::exception_ptr e) {
                              signals.cancel();
                              io.stop();
                              if (e) std::rethrow_exception(e);
                          }));
    io.run();
}

int main(int argc, char** argv) {
    try {
        boost::asio::io_context io;
        example::model model(io);
        if (argc == 2 && std::string(argv[1]) == "--self-test") {
            example::run(io, self_test(io, model.client()));
            return 0;
        }
        serve_until_stopped(io, model.client(), argc == 2 ? static_cast<unsigned short>(std::stoi(argv[1])) : 8080);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
    }
    return 1;
}
