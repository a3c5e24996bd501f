// Streaming: a text answer printed as it arrives, then a typed answer watched as its
// partial<book> fills in, field by field, while the JSON streams.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <chrono>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

struct book {
    std::string title;
    std::string author;
    int year = 0;
    std::vector<std::string> themes;
};
BOOST_DESCRIBE_STRUCT(book, (), (title, author, year, themes))
FORMA_DESCRIBE_FIELDS(book,
    (year, .description = "Year of first publication", .minimum = 1000, .maximum = 2100),
    (themes, .description = "Main themes, one or two words each"));

// What is known so far of each kind of value: "?" for nothing yet; a string still
// streaming ends with "...", a list still streaming has no closing bracket.
std::string show(const forma::partial<std::string>& text) {
    if (!text.has_value()) return "?";
    return '"' + text.value() + (text.complete() ? "\"" : "...");
}
std::string show(const forma::partial<int>& number) {
    return number.has_value() ? std::to_string(number.value()) : "?";
}
std::string show(const forma::partial<std::vector<std::string>>& list) {
    if (!list.has_value()) return "?";
    std::string out = "[";
    for (const auto& element : list) {
        if (out.size() > 1) out += ", ";
        out += show(element); // appends: GCC 12 warns falsely (-Wrestrict) on "..." + a string inlined
    }
    return out + (list.complete() ? "]" : "");
}
std::string show(const forma::partial<book>& snapshot) {
    std::string out;
    snapshot.for_each_member([&](std::string_view name, const auto& member) {
        if (!out.empty()) out += ' ';
        out.append(name).append("=").append(show(member));
    });
    return out;
}

boost::asio::awaitable<void> stream_answers(forma::chat_client& model) {
    forma::chat_client_agent agent(model, {.name = "librarian"});

    std::cout << "Text, as it arrives:\n  ";
    forma::update_stream text = agent.run_streaming("Say hello to the readers of forma's examples.");
    std::size_t pieces = 0;
    while (auto update = co_await text.next()) {
        if (update->text().empty()) continue; // the role, the finish reason, the usage
        std::cout << update->text() << std::flush;
        ++pieces;
    }
    std::cout << "\n(" << pieces << " pieces)\n\n";

    std::cout << "A book, as it fills in:\n";
    auto typed = agent.run_streaming<book>(
        "Moby Dick is a novel by Herman Melville, published in 1851, about obsession and the sea.");
    std::string last_shown;
    while (auto event = co_await typed.next()) {
        if (event->is_final()) {
            const book& b = event->result(); // validated as a whole, like run<book>
            std::cout << "Done: " << b.title << " by " << b.author << " (" << b.year << "), "
                      << b.themes.size() << " themes\n";
            continue;
        }
        // Many updates add a few bytes that complete nothing new: print only what changed.
        if (std::string shown = show(event->snapshot()); shown != last_shown) {
            std::cout << "  " << shown << '\n';
            last_shown = std::move(shown);
        }
    }
}

int main() {
    try {
        boost::asio::io_context io;
        // Small deltas, a little apart, so that the local server streams visibly.
        example::model model(io, {.delta_size = 4, .chunk_delay = std::chrono::milliseconds(15)});
        example::run(io, stream_answers(model.client()));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
