// A support desk: a triage agent hands the customer to billing or technical; a refund waits for
// the operator's approval, which the next run brings; then a typed summary of the whole ticket.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

struct refund_request {
    std::string order_id;
    double amount = 0;
};
BOOST_DESCRIBE_STRUCT(refund_request, (), (order_id, amount))

struct ticket_summary {
    std::string category;
    std::string resolution;
    bool refunded = false;
};
BOOST_DESCRIBE_STRUCT(ticket_summary, (), (category, resolution, refunded))

// What the desk said: who spoke, and who handed the customer to whom.
void show(const forma::agent_response<>& response) {
    for (const forma::chat_message& message : response.messages)
        for (const forma::content& c : message.contents) {
            if (const auto* handoff = std::get_if<forma::handoff_content>(&c))
                std::cout << "[handoff] " << handoff->from << " -> " << handoff->to
                          << (handoff->reason.empty() ? "" : " (" + handoff->reason + ")") << '\n';
            else if (const auto* text = std::get_if<forma::text_content>(&c))
                std::cout << message.author_name << ": " << text->text << '\n';
            else if (const auto* request = std::get_if<forma::function_approval_request_content>(&c))
                std::cout << "[waits] " << message.author_name << " asks to run " << request->call.name << ' '
                          << boost::json::serialize(request->call.arguments) << '\n';
        }
}

boost::asio::awaitable<void> support_desk(forma::chat_client& model) {
    const forma::function_tool refund = forma::make_tool(
        "refund", "Refunds an order to the customer's card",
        [](const refund_request& r) { return "refunded order " + r.order_id; }, {.requires_approval = true});

    auto triage = std::make_shared<forma::chat_client_agent>(
        model, forma::chat_client_agent_options{
                   .name = "triage",
                   .description = "First contact",
                   .instructions = "Find out what the customer needs and hand them to billing or technical."});
    auto billing = std::make_shared<forma::chat_client_agent>(
        model, forma::chat_client_agent_options{.name = "billing",
                                                .description = "Charges, invoices and refunds",
                                                .instructions = "Settle the customer's billing question.",
                                                .tools = {refund}});
    auto technical = std::make_shared<forma::chat_client_agent>(
        model, forma::chat_client_agent_options{.name = "technical",
                                                .description = "Bugs, crashes and outages",
                                                .instructions = "Help the customer with the technical problem."});
    // Triage routes; billing and technical answer themselves.
    forma::handoff_orchestration desk({triage, billing, technical},
                                      {.routes = {{"billing", {}}, {"technical", {}}},
                                       .orchestration = {.name = "support_desk"}});

    auto session = desk.create_session();
    forma::agent_response<> response =
        co_await desk.run("I was charged twice for order A-17; please refund the second charge.", session);
    show(response);
    // An approval stops the whole desk; the operator's answers go to the agent that asked.
    while (!response.approval_requests().empty()) {
        std::vector<forma::content> answers;
        for (const auto& request : response.approval_requests()) {
            std::cout << "[operator] approves " << request.call.name << '\n';
            answers.push_back(request.approve());
        }
        response = co_await desk.run(forma::chat_message(forma::chat_role::user(), std::move(answers)), session);
        show(response);
    }

    // A typed summary of the ticket, from the whole conversation.
    forma::chat_client_agent summarizer(model, {.name = "summarizer", .instructions = "Summarize the support ticket."});
    std::vector<forma::chat_message> ticket = session->history;
    ticket.emplace_back(forma::chat_role::user(), "Summarize this ticket.");
    const forma::agent_response<ticket_summary> summary = co_await summarizer.run<ticket_summary>(std::move(ticket));
    std::cout << "summary: " << forma::to_json(summary.result()) << '\n';
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        example::run(io, support_desk(model.client()));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
