// forma-schema: prints the JSON Schema forma derives for the example types
// (example/example_types.hpp).
//   forma-schema [--dialect standard|openai-strict] [--list] [TYPE]

#include "example_types.hpp"
#include "json_printing.hpp"

#include <forma/json/json_schema.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <exception>
#include <iomanip>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view usage =
    R"(usage: forma-schema [--dialect standard|openai-strict] [--list] [TYPE]
Prints, pretty, the JSON Schema forma derives for one of the example types.

  --dialect D  standard: JSON Schema 2020-12 (default);
               openai-strict: what OpenAI accepts with "strict": true
  --list       the types' names and descriptions
  --help       this text
)";

/// One example type: its name on the command line and its schema in a dialect.
struct entry {
    std::string_view name;
    const boost::json::object& (*schema)(const forma::schema_options&);
};

template <class T>
const boost::json::object& schema_of(const forma::schema_options& options) {
    return forma::json_schema<T>(options);
}

constexpr std::array<entry, 4> types{{
    {"person", &schema_of<example::person>},
    {"postal_address", &schema_of<example::postal_address>},
    {"contact_card", &schema_of<example::contact_card>},
    {"support_ticket", &schema_of<example::support_ticket>},
}};

int fail(std::string_view message) {
    std::cerr << "forma-schema: " << message << "\n" << usage;
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    forma::schema_options options;
    bool list = false;
    std::optional<std::string_view> type;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::cout << usage;
            return 0;
        } else if (arg == "--list") {
            list = true;
        } else if (arg == "--dialect") {
            const std::string_view dialect = i + 1 < argc ? argv[++i] : "";
            if (dialect == "standard")
                options.dialect = forma::schema_dialect::json_schema_2020_12;
            else if (dialect == "openai-strict")
                options.dialect = forma::schema_dialect::openai_strict;
            else
                return fail("unknown dialect '" + std::string(dialect) +
                            "' (standard or openai-strict)");
        } else if (arg.starts_with("-")) {
            return fail("unknown option " + std::string(arg));
        } else if (type) {
            return fail("one type at a time");
        } else {
            type = arg;
        }
    }

    try {
        if (list) {
            for (const entry& e : types) {
                const auto* description = e.schema(options).if_contains("description");
                std::cout << std::left << std::setw(16) << e.name;
                if (description && description->is_string())
                    std::cout << std::string_view(description->get_string());
                std::cout << '\n';
            }
            return 0;
        }
        if (!type) return fail("which type? (--list names them)");
        for (const entry& e : types) {
            if (e.name != *type) continue;
            example::print_json(std::cout, e.schema(options), 0);
            std::cout << '\n';
            return 0;
        }
        std::string names;
        for (const entry& e : types)
            names += (names.empty() ? "" : ", ") + std::string(e.name);
        return fail("unknown type '" + std::string(*type) + "' (one of: " + names + ")");
    } catch (const std::exception& e) {
        std::cerr << "forma-schema: " << e.what() << '\n';
        return 1;
    }
}
