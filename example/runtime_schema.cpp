// A schema known only at run time: JSON Schema text read from a file, no C++ type. Each run
// asks for that schema through its run options; each answer is checked against the same
// schema with forma::schema_validator before its fields are read as plain JSON.
//
//   runtime_schema [schema.json]   (default: support_ticket.schema.json next to this file)
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#ifndef FORMA_EXAMPLE_DIR
#define FORMA_EXAMPLE_DIR "."
#endif

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

boost::asio::awaitable<void> triage(forma::chat_client& model, forma::response_format format,
                                    forma::schema_validator validator) {
    forma::chat_client_agent agent(model, {.name = "triage",
                                           .instructions = "Triage the customer's support ticket."});
    // The format travels with each run; the agent itself keeps answering in text otherwise.
    forma::agent_run_options options;
    options.response_format = std::move(format);

    const std::vector<std::string> tickets = {
        "I was charged twice for my Pro subscription this month. Please refund one payment.",
        "The Android app crashes whenever I open the export dialog on a Pixel 8.",
    };
    for (const std::string& ticket : tickets) {
        forma::agent_response<> response = co_await agent.run(ticket, nullptr, options);
        // The answer is JSON text matching the schema (strict mode): read it as a value.
        const boost::json::value answer = boost::json::parse(response.text());
        std::cout << "Ticket: " << ticket << "\nAnswer: " << boost::json::serialize(answer) << '\n';
        // Throws json_error naming the member ("at /priority: 7 is greater than the maximum 4")
        // if the model strayed; after it, the fields below are there with the right types.
        validator.validate(answer);
        const boost::json::object& ticket_fields = answer.as_object();
        std::cout << "  -> the " << std::string_view(ticket_fields.at("category").as_string())
                  << " queue, priority " << ticket_fields.at("priority").to_number<std::int64_t>() << '\n';
    }
}

int main(int argc, char** argv) {
    try {
        const std::string schema_path = argc > 1 ? argv[1] : FORMA_EXAMPLE_DIR "/support_ticket.schema.json";
        // Checked here: the name must suit the provider, and the text must be a JSON object.
        forma::response_format format =
            forma::response_format::json_schema("support_ticket", read_file(schema_path), "A triaged support ticket",
                                                /*strict=*/true);
        // Compiled once (copies share it); throws schema_error for a keyword it cannot check.
        const forma::schema_validator validator(format.schema());
        std::cout << "Schema: " << schema_path << '\n';

        boost::asio::io_context io;
        example::model model(io);
        example::run(io, triage(model.client(), std::move(format), validator));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
