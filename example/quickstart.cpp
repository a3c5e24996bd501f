// forma's quickstart: describe a struct, ask an agent for one, get it back typed.
//
// Runs against the OpenAI-compatible service when OPENAI_API_KEY is set (OPENAI_BASE_URL and
// OPENAI_MODEL are optional), and otherwise against forma's local model server, started in
// this process.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <iostream>
#include <optional>
#include <string>

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))
// Descriptions and bounds go into the JSON Schema the model sees, and are checked on the answer.
FORMA_DESCRIBE_FIELDS(person,
    (name, .description = "Full name", .min_length = 1),
    (age, .description = "Age in years", .minimum = 0, .maximum = 150),
    (occupation, .description = "Job title, if the text gives one"));

boost::asio::awaitable<void> extract_person(forma::chat_client& model) {
    forma::chat_client_agent agent(model, {.name = "extractor",
                                           .instructions = "Extract the person the text describes."});
    const std::string text = "John Smith is a 35-year-old software engineer from Boston.";
    // run<person> sends person's JSON Schema as the response format and reads the answer back.
    forma::agent_response<person> response = co_await agent.run<person>(text);
    const person& p = response.result(); // throws a typed error for an answer that is not a person
    std::cout << "name:       " << p.name << '\n'
              << "age:        " << p.age << '\n'
              << "occupation: " << p.occupation.value_or("(not given)") << '\n';
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        example::run(io, extract_person(model.client()));
        return 0;
    } catch (const forma::refusal_error& e) {
        std::cerr << "The model refused: " << e.what() << '\n';
    } catch (const forma::json_error& e) {
        std::cerr << "The answer is not a person: " << e.what() << '\n'; // e.path() is a JSON Pointer
    } catch (const forma::http_error& e) {
        std::cerr << "The service said no: " << e.what() << '\n';
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
    }
    return 1;
}
