#include <forma/chat/function_tool.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/chat/tool_error.hpp>

#include <forma/json/schema_error.hpp>
#include <forma/json/strict_rules.hpp>

#include "../json/json_text.hpp"
#include "../json/parsed_numbers.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/stream_parser.hpp>

#include <algorithm>

namespace forma {
namespace {

// OpenAI-compatible APIs refuse other names with a 400 (^[a-zA-Z0-9_-]{1,64}$).
bool is_tool_name(std::string_view name) noexcept {
    return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

// The name, quoted for a message: printable ASCII as it is, other bytes as \xNN, so that
// the message stays valid UTF-8 whatever the name holds.
std::string quoted(std::string_view name) {
    std::string out = "\"";
    for (char c : name.substr(0, 80)) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F) {
            out += c;
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 0xF];
        }
    }
    if (name.size() > 80) out += "...";
    return out + "\"";
}

// OpenAI-compatible APIs refuse a tool whose parameters are not an object schema with a 400, at
// the first request that offers it: refused here instead, where the tool is made.
[[noreturn]] void not_an_object_schema(std::string_view tool_name, const std::string& what_it_is) {
    throw schema_error("the parameters schema of the tool " + quoted(tool_name) +
                       " must be an object schema (\"type\": \"object\"), as OpenAI-compatible APIs require; " +
                       what_it_is);
}

void require_object_schema(std::string_view tool_name, const boost::json::object& parameters) {
    const boost::json::value* type = parameters.if_contains("type");
    if (!type) not_an_object_schema(tool_name, "it has no \"type\"");
    if (*type != "object")
        not_an_object_schema(tool_name, "its \"type\" is " + json_detail::valid_utf8(boost::json::serialize(*type)));
}

} // namespace

struct function_tool::definition {
    std::string name;
    std::string description;
    boost::json::object parameters;
    bool strict = false;
    function_tool_options options;
    invoker_type invoker;
};

function_tool::function_tool(std::string name, std::string description, boost::json::object parameters,
                             invoker_type invoker, function_tool_options options) {
    if (!is_tool_name(name))
        throw error("the tool name " + quoted(name) +
                    " is not 1 to 64 letters, digits, '_' or '-', as OpenAI-compatible APIs require");
    if (!invoker) throw error("the tool \"" + name + "\" has no invoker");
    require_object_schema(name, parameters);
    auto d = std::make_shared<definition>();
    d->strict = !openai_strict_violation(parameters);
    d->name = std::move(name);
    d->description = std::move(description);
    d->parameters = std::move(parameters);
    d->options = options;
    d->invoker = std::move(invoker);
    definition_ = std::move(d);
}

const std::string& function_tool::name() const noexcept { return definition_->name; }
const std::string& function_tool::description() const noexcept { return definition_->description; }
const boost::json::object& function_tool::parameters() const noexcept { return definition_->parameters; }
bool function_tool::strict() const noexcept { return definition_->strict; }
const function_tool_options& function_tool::options() const noexcept { return definition_->options; }

boost::asio::awaitable<boost::json::value> function_tool::invoke(const tool_invocation& invocation) const {
    return definition_->invoker(invocation);
}

std::string tool_arguments_text(const function_call_content& call) {
    if (const boost::json::object* raw = call.raw_representation.if_object()) {
        const boost::json::value* holder = raw->if_contains("function"); // Chat Completions
        const boost::json::object* function = holder ? holder->if_object() : raw; // else the Responses API
        if (function)
            if (const boost::json::value* text = function->if_contains("arguments"); text && text->is_string())
                return std::string(text->get_string());
    }
    return boost::json::serialize(call.arguments);
}

namespace chat_detail {

boost::json::value parse_arguments(std::string_view text) {
    if (text.empty()) return boost::json::object();
    boost::json::parse_options limits;
    limits.max_depth = 64; // as from_json's default
    boost::json::stream_parser parser({}, limits);
    boost::system::error_code ec;
    const std::size_t used = parser.write_some(text.data(), text.size(), ec);
    if (!ec && used < text.size()) ec = boost::json::error::extra_data;
    if (!ec) parser.finish(ec);
    if (ec)
        throw tool_arguments_error("", "the arguments are not valid JSON: " + ec.message() + " at " +
                                           json_detail::line_and_column(text, used),
                                   used);
    boost::json::value arguments = parser.release();
    if (const auto at = json_detail::repair_parsed_numbers(arguments))
        throw tool_arguments_error(*at, "a number too large for a double");
    return arguments;
}

const boost::json::object& no_parameters() {
    static const boost::json::object schema{{"type", "object"},
                                            {"properties", boost::json::object()},
                                            {"required", boost::json::array()},
                                            {"additionalProperties", false}};
    return schema;
}

boost::json::object object_schema(std::string_view tool_name, const boost::json::value& schema) {
    const boost::json::object* object = schema.if_object();
    if (!object) not_an_object_schema(tool_name, "it is the boolean schema " + boost::json::serialize(schema));
    return *object; // function_tool's constructor checks its "type"
}

} // namespace chat_detail
} // namespace forma
