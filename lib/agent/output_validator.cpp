#include <forma/agent/output_validator.hpp>

#include <forma/json/schema_validator.hpp>

#include "../json/json_text.hpp"

#include <boost/json/stream_parser.hpp>

#include <optional>

namespace forma {

std::vector<output_error> output_validator::to_output_errors(const std::vector<json_error>& errors) {
    std::vector<output_error> out;
    out.reserve(errors.size());
    for (const json_error& e : errors) out.push_back({e.path(), e.reason()});
    return out;
}

namespace {

// The answer as JSON, or the one error that says why it is not.
std::optional<boost::json::value> parsed(std::string_view answer, std::vector<output_error>& errors) {
    boost::json::stream_parser parser;
    boost::system::error_code ec;
    const std::size_t used = parser.write(answer.data(), answer.size(), ec);
    if (!ec) parser.finish(ec);
    if (!ec) return parser.release();
    errors.push_back({"", "invalid JSON: " + ec.message() + " (" + json_detail::line_and_column(answer, used) + ")"});
    return std::nullopt;
}

} // namespace

output_validator output_validator::for_format(const response_format& format) {
    switch (format.kind()) {
    case response_format_kind::text: return {};
    case response_format_kind::json: break;
    case response_format_kind::json_schema:
        try {
            auto schema = std::make_shared<const schema_validator>(format.schema());
            return output_validator([schema](std::string_view answer) {
                std::vector<output_error> errors;
                if (auto value = parsed(answer, errors))
                    for (schema_violation& v : schema->violations(*value, error_limit))
                        errors.push_back({std::move(v.path), std::move(v.reason)});
                return errors;
            });
        } catch (const schema_error&) {
            break; // a schema the validator cannot compile: only check the answer is JSON
        }
    }
    return output_validator([](std::string_view answer) {
        std::vector<output_error> errors;
        parsed(answer, errors);
        return errors;
    });
}

} // namespace forma
