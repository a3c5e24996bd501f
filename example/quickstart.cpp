// forma's quickstart: describe a struct, ask an agent for one, get it back typed.
//
// Runs against an OpenAI-compatible service when OPENAI_API_KEY or OPENAI_BASE_URL is set
// (OPENAI_MODEL optional): OpenAI, or a local server such as Ollama, llama.cpp's server, vLLM
// or LM Studio. Otherwise it runs against forma's local model server, started in this process,
// whose answers are generated from the schema rather than by a model; then it also shows
// forma's own work: the response format it sent, the answer that came back, the typed value,
// the typed error of a second answer broken on purpose, and the validation retry that fixes it.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>
#include <boost/json/parse.hpp>

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

namespace {

void print_person(const person& p) {
    std::cout << "name:       " << p.name << '\n'
              << "age:        " << p.age << '\n'
              << "occupation: " << p.occupation.value_or("(not given)") << '\n';
}

// The response format of the last request the local server received: what forma sent.
boost::json::value sent_response_format(const forma::testing::model_server& server) {
    const auto requests = server.requests();
    if (requests.empty()) return nullptr;
    const boost::json::value body = boost::json::parse(requests.back().body);
    const auto* format = body.as_object().if_contains("response_format");
    return format ? *format : boost::json::value(nullptr);
}

void print_how_to_use_a_real_model() {
    std::cout << "\nTo ask a real model, run it again with these set (servers on your own machine need no key;\n"
                 "set OPENAI_API_KEY too if yours was started with one):\n"
                 "  OpenAI            OPENAI_API_KEY=sk-...  (OPENAI_MODEL to choose, default gpt-4o-mini)\n"
                 "  Ollama            OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=llama3.2\n"
                 "  llama.cpp server  OPENAI_BASE_URL=http://localhost:8080/v1\n"
                 "  vLLM              OPENAI_BASE_URL=http://localhost:8000/v1 OPENAI_MODEL=<the served model>\n"
                 "  LM Studio         OPENAI_BASE_URL=http://localhost:1234/v1 OPENAI_MODEL=<the loaded model>\n"
                 "For example: OPENAI_BASE_URL=http://localhost:11434/v1 OPENAI_MODEL=llama3.2 tools/demo\n";
}

} // namespace

boost::asio::awaitable<void> extract_person(example::model& model) {
    forma::chat_client_agent agent(model.client(), {.name = "extractor",
                                                    .instructions = "Extract the person the text describes."});
    const std::string text = "John Smith is a 35-year-old software engineer from Boston.";
    // run<person> sends person's JSON Schema as the response format and reads the answer back.
    forma::agent_response<person> response = co_await agent.run<person>(text);
    const person& p = response.result(); // throws a typed error for an answer that is not a person

    forma::testing::model_server* server = model.local_server();
    if (!server) { // a real model: the typed value is the point
        print_person(p);
        co_return;
    }

    // The local server: what forma did, step by step.
    std::cout << "\nThe prompt: " << text << "\n\n"
              << "1. The response format forma derived from `person` and sent (as the server received it):\n";
    example::print_json(std::cout, sent_response_format(*server));
    std::cout << "\n\n2. The answer that came back:\n" << response.text() << "\n\n"
              << "3. The typed value, from response.result():\n";
    print_person(p);

    // A second run, whose answer the server is told to break: "age" as text, as a model might
    // write it. Validation retries are off for this run, so the broken answer is the result.
    boost::json::object broken = boost::json::parse(response.text()).as_object();
    broken["age"] = std::to_string(p.age) + " years";
    const std::string broken_text = boost::json::serialize(broken);
    server->enqueue(forma::testing::scripted_reply::completion(broken_text));
    forma::agent_run_options no_retries;
    no_retries.max_output_retries = 0;
    forma::agent_response<person> second = co_await agent.run<person>(text, nullptr, no_retries);
    std::cout << "\n4. A second run, whose answer the server breaks on purpose (\"age\" as text), retries off:\n"
              << second.text() << '\n';
    try {
        (void)second.result();
        std::cout << "response.result() accepted it\n"; // not expected: the answer is not a person
    } catch (const forma::json_error& e) {
        std::cout << "response.result() throws forma::json_error\n"
                  << "  path(): " << e.path() << '\n'
                  << "  what(): " << e.what() << '\n';
    }

    // The same broken answer with the default of one validation retry: forma sends the errors
    // back and the model answers again.
    server->enqueue(forma::testing::scripted_reply::completion(broken_text));
    forma::agent_response<person> third = co_await agent.run<person>(text);
    std::cout << "\n5. The same broken answer with a validation retry (max_output_retries, 1 by default).\n"
                 "forma sent the model its answer back, and then:\n";
    for (const auto& message : third.messages)
        for (const auto& content : message.contents)
            if (const auto* errors = std::get_if<forma::output_errors_content>(&content))
                std::cout << forma::correction_text(*errors) << '\n';
    std::cout << "The corrected answer: " << third.text() << '\n';
    print_person(third.result());
    print_how_to_use_a_real_model();
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        example::run(io, extract_person(model));
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
