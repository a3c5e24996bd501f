// forma's quickstart, for now: the JSON Schema forma derives from a described
// struct, and a model-style answer parsed back into that struct. (The agent
// quickstart, with a built-in local model, replaces it once the agent core lands.)
#include <forma/forma.hpp>

#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace demo {

enum class unit { celsius, fahrenheit };
BOOST_DESCRIBE_ENUM(unit, celsius, fahrenheit)

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
    std::vector<std::string> skills;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation, skills))
FORMA_DESCRIBE_TYPE(person, .description = "A person mentioned in the text");
FORMA_DESCRIBE_FIELDS(person,
    (name, .description = "Full name", .min_length = 1),
    (age, .description = "Age in years", .minimum = 0, .maximum = 150),
    (occupation, .description = "Job title, if the text gives one"));

} // namespace demo

int main() {
    std::cout << "JSON Schema (OpenAI strict dialect) of demo::person:\n"
              << boost::json::serialize(forma::json_schema<demo::person>(
                     {.dialect = forma::schema_dialect::openai_strict}))
              << "\n\n";

    const auto* answer = R"({"name":"John Smith","age":35,"occupation":"software engineer",
                             "skills":["C++","Rust"]})";
    const auto john = forma::from_json<demo::person>(answer);
    std::cout << "parsed: " << john.name << ", " << john.age << ", "
              << john.occupation.value_or("(no occupation)") << ", " << john.skills.size()
              << " skills\n";

    try {
        forma::from_json<demo::person>(R"({"name":"Ann","age":"forty","skills":[]})");
    } catch (const forma::json_error& e) {
        std::cout << "a wrong answer is reported precisely: " << e.what() << '\n';
    }
    return 0;
}
