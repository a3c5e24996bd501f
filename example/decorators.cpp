// Decorators: an agent that answers in prose, given telemetry and structured output with
// agent_builder. run<capital> then works on the decorated agent as on any other: the
// structured-output decorator turns the prose into a capital; the telemetry decorators record
// the run (agent_builder's) and both model calls (telemetry_chat_client's) as OpenTelemetry
// GenAI spans, printed at the end.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

struct capital {
    std::string country;
    std::string city;
    double population_millions = 0;
};
BOOST_DESCRIBE_STRUCT(capital, (), (country, city, population_millions))
FORMA_DESCRIBE_FIELDS(capital, (population_millions, .description = "City proper", .minimum = 0));

std::string to_text(const forma::telemetry::attribute_value& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>) return v;
            else if constexpr (std::is_same_v<V, bool>) return v ? "true" : "false";
            else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
                std::string out;
                for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
                return '[' + out + ']';
            } else return std::to_string(v);
        },
        value);
}

/// Each span on a line, children under their parent, with a few of its GenAI attributes.
void print_spans(std::vector<forma::telemetry::span_data> spans) {
    std::ranges::sort(spans, {}, &forma::telemetry::span_data::start_time);
    for (const auto& span : spans) {
        std::cout << (span.parent_span_id ? "    " : "  ") << span.name << " (";
        const char* separator = "";
        for (std::string_view key : {"gen_ai.output.type", "gen_ai.response.model", "gen_ai.usage.input_tokens",
                                     "gen_ai.usage.output_tokens"})
            if (const auto* value = forma::telemetry::find(span.attributes, key)) {
                std::cout << separator << key << '=' << to_text(*value);
                separator = ", ";
            }
        std::cout << ")\n";
    }
}

boost::asio::awaitable<void> ask_decorated_agent(forma::chat_client& model) {
    forma::telemetry_chat_client traced_model(model); // each model call a chat span of the run
    forma::chat_client_agent assistant(traced_model, {.name = "assistant",
                                                      .instructions = "Answer in one or two sentences."});
    auto spans = std::make_shared<forma::telemetry::in_memory_exporter>();
    std::shared_ptr<forma::agent> agent = forma::agent_builder(assistant)
                                              .use_telemetry({.exporter = spans}) // outermost: sees the whole run
                                              .use_structured_output(traced_model)
                                              .build();

    const std::string question = "What is the capital of France, and how many people live there?";
    forma::agent_response<capital> response = co_await agent->run<capital>(question);
    const capital& answer = response.result();
    std::cout << "Typed answer: city=" << answer.city << ", country=" << answer.country
              << ", population_millions=" << answer.population_millions << '\n';
    if (const auto* prose = response.original_response())
        std::cout << "The assistant's own words: " << prose->text() << '\n';

    std::cout << "Spans:\n";
    print_spans(spans->spans());
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        example::run(io, ask_decorated_agent(model.client()));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
