// The schema-known-at-run-time path: a response_format from schema text, its JSON
// round trip, a schema_validator compiled from it, and a schema-driven instance made
// from it, which the validator must accept. Only typed errors may escape.
//
// Input: a config byte (bits 0-5: the instance's seed; bit 7: a first line gives the
// format's name, else "fuzz_schema"; bit 6: a next line gives the prompt), then the schema text.
#include "fuzz_support.hpp"

#include <forma/json/schema_validator.hpp>
#include <forma/model/response_format.hpp>
#include <forma/testing/schema_instance.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace {

constexpr std::string_view default_prompt =
    "Ada Lovelace 1815 wrote notes on the Analytical Engine, \xC3\xA9t\xC3\xA9 42";

std::optional<forma::response_format> format_from(std::string_view name,
                                                  std::string_view schema_text) {
    std::optional<forma::response_format> format;
    forma_fuzz::only_typed_errors([&] {
        format =
            forma::response_format::json_schema(std::string(name), schema_text, "fuzzed", true);
    });
    return format;
}

void check_json_round_trip(const forma::response_format& format) {
    const boost::json::value written = boost::json::value_from(format);
    std::optional<forma::response_format> read;
    forma_fuzz::only_typed_errors(
        [&] { read = boost::json::value_to<forma::response_format>(written); });
    forma_fuzz::check(read && *read == format,
                      "a response_format does not survive its JSON round trip");
}

std::optional<forma::schema_validator> validator_of(const forma::response_format& format) {
    std::optional<forma::schema_validator> validator;
    forma_fuzz::only_typed_errors([&] { validator.emplace(format.schema()); });
    return validator;
}

// The validator's three ways to answer must agree.
bool consistent_verdict(const forma::schema_validator& validator, const boost::json::value& value) {
    const bool valid = validator.is_valid(value);
    forma_fuzz::check(validator.try_validate(value).has_value() == valid,
                      "try_validate and is_valid disagree");
    forma_fuzz::check(validator.violations(value).empty() == valid, "violations and is_valid disagree");
    return valid;
}

// make_instance may break these keywords by design (see its documentation), so an
// instance of a schema that uses them need not be valid.
bool instance_must_be_valid(std::string_view schema_text) {
    for (std::string_view keyword : {"pattern", "format", "Length", "multipleOf"})
        if (schema_text.find(keyword) != std::string_view::npos) return false;
    return true;
}

void make_instance_of(const forma::response_format& format, std::string_view schema_text,
                      std::string_view prompt, std::uint8_t seed) {
    const auto validator = validator_of(format);
    if (validator)
        for (const boost::json::value& probe : {boost::json::value(nullptr), boost::json::value(0),
                                                boost::json::value(""), boost::json::value(boost::json::array()),
                                                boost::json::value(boost::json::object())})
            consistent_verdict(*validator, probe);
    forma_fuzz::only_typed_errors([&] {
        const boost::json::value instance =
            forma::testing::make_instance(format.schema(), prompt, seed);
        (void)boost::json::serialize(instance);
        if (validator && consistent_verdict(*validator, instance) == false &&
            instance_must_be_valid(schema_text))
            forma_fuzz::fail("schema_validator rejects the instance make_instance made for its schema");
    });
}

// Takes the text up to the first newline off the front of `text`, or nothing when there is none.
std::optional<std::string_view> take_line(std::string_view& text) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return std::nullopt;
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline + 1);
    return line;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string_view name = "fuzz_schema";
    std::string_view prompt = default_prompt;
    if (config & 128) {
        const auto line = take_line(text);
        if (!line) return 0;
        name = *line;
    }
    if (config & 64) {
        const auto line = take_line(text);
        if (!line) return 0;
        prompt = *line;
    }
    const auto format = format_from(name, text);
    if (!format) return 0;
    check_json_round_trip(*format);
    make_instance_of(*format, text, prompt, config & 63);
    return 0;
}
