// Two agents in a row: the first extracts typed facts from a meeting's notes with
// run<meeting_facts>; the second writes an email from those facts alone, handed over as JSON.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <iostream>
#include <string>
#include <vector>

struct action_item {
    std::string owner;
    std::string task;
};
BOOST_DESCRIBE_STRUCT(action_item, (), (owner, task))

struct meeting_facts {
    std::string topic;
    std::vector<std::string> decisions;
    std::vector<action_item> action_items;
};
BOOST_DESCRIBE_STRUCT(meeting_facts, (), (topic, decisions, action_items))
FORMA_DESCRIBE_TYPE(meeting_facts, .description = "What a meeting decided, and who does what next");

boost::asio::awaitable<void> notes_to_email(forma::chat_client& model) {
    forma::chat_client_agent extractor(model, {.name = "extractor",
                                               .instructions = "Extract the facts of the meeting notes."});
    forma::chat_client_agent writer(model, {.name = "writer",
                                            .instructions = "Write a short, friendly follow-up email "
                                                            "from the facts given as JSON. Add nothing else."});

    const std::string notes = "Release planning. We ship version 2.0 on May 3rd and drop Windows 7. "
                              "Alice updates the installer; Bob writes the release notes.";
    forma::agent_response<meeting_facts> extracted = co_await extractor.run<meeting_facts>(notes);
    const meeting_facts& facts = extracted.result();
    std::cout << "Facts (" << extractor.name() << "):\n  topic: " << facts.topic << '\n';
    for (const auto& decision : facts.decisions) std::cout << "  decision: " << decision << '\n';
    for (const auto& item : facts.action_items) std::cout << "  action: " << item.owner << " - " << item.task << '\n';

    // The second agent never sees the notes: only the typed facts, written back as JSON.
    const std::string request = "Facts: " + forma::to_json(facts);
    forma::agent_response<> email = co_await writer.run(request);
    std::cout << "\nEmail (" << writer.name() << "):\n" << email.text() << '\n';
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        example::run(io, notes_to_email(model.client()));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
