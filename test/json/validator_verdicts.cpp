// For the validator oracle (check_validator.py): reads "schema<TAB>instance" lines and prints,
// per line, schema_validator's verdict: "valid", "invalid" or "schema_error <message>".
#include <forma/json/schema_validator.hpp>

#include <boost/json/parse.hpp>

#include <iostream>
#include <string>

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        const auto tab = line.find('\t');
        try {
            const auto validator = forma::schema_validator::from_text(line.substr(0, tab));
            const bool valid = validator.is_valid(boost::json::parse(line.substr(tab + 1)));
            std::cout << (valid ? "valid" : "invalid") << '\n';
        } catch (const forma::schema_error& e) {
            std::cout << "schema_error " << e.what() << '\n';
        }
    }
}
