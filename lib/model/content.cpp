#include <forma/model/content.hpp>

#include <forma/error.hpp>

#include "json_support.hpp"

#include <array>

namespace forma {
namespace {

using namespace model_detail;

constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> base64_values = [] {
    std::array<std::int8_t, 256> values{};
    values.fill(-1);
    for (std::size_t i = 0; i < base64_alphabet.size(); ++i)
        values[static_cast<unsigned char>(base64_alphabet[i])] = static_cast<std::int8_t>(i);
    return values;
}();

std::string encode_base64(const std::vector<std::byte>& bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const auto n = (std::to_integer<unsigned>(bytes[i]) << 16) |
                       (std::to_integer<unsigned>(bytes[i + 1]) << 8) |
                       std::to_integer<unsigned>(bytes[i + 2]);
        out += base64_alphabet[(n >> 18) & 63];
        out += base64_alphabet[(n >> 12) & 63];
        out += base64_alphabet[(n >> 6) & 63];
        out += base64_alphabet[n & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest > 0) {
        unsigned n = std::to_integer<unsigned>(bytes[i]) << 16;
        if (rest == 2) n |= std::to_integer<unsigned>(bytes[i + 1]) << 8;
        out += base64_alphabet[(n >> 18) & 63];
        out += base64_alphabet[(n >> 12) & 63];
        out += rest == 2 ? base64_alphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// Leaves `error` empty on success, else says why the text is not base64.
std::vector<std::byte> decode_base64(std::string_view text, std::string& error) {
    std::size_t length = text.size();
    if (length % 4 == 0 && length > 0 && text[length - 1] == '=') {
        --length;
        if (text[length - 1] == '=') --length;
    }
    std::vector<std::byte> out;
    out.reserve(length / 4 * 3 + 2);
    unsigned buffer = 0;
    int bits = 0;
    for (std::size_t i = 0; i < length; ++i) {
        const std::int8_t v = base64_values[static_cast<unsigned char>(text[i])];
        if (v < 0) {
            error = "offset " + std::to_string(i) + " holds a character outside the base64 alphabet";
            return {};
        }
        buffer = (buffer << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::byte>((buffer >> bits) & 0xFF));
        }
    }
    if (length % 4 == 1) {
        error = "its length is not a valid base64 length";
        return {};
    }
    // Canonical encodings leave the unused low bits zero; anything else hides data.
    if (bits > 0 && (buffer & ((1u << bits) - 1)) != 0) {
        error = "its last character has bits set that no byte uses";
        return {};
    }
    return out;
}

constexpr std::string_view type_key = "type";
constexpr std::string_view raw_key = "raw_representation";
constexpr std::string_view properties_key = "additional_properties";

// The JSON type names, in the variant's order; unknown_content uses its own.
constexpr std::array<std::string_view, 13> known_types = {
    "text",  "reasoning", "data",   "uri", "function_call", "function_result", "usage",
    "error", "refusal",   "function_approval_request", "function_approval_response", "output_errors", "handoff"};

template <class Kind>
constexpr std::string_view type_of() {
    if constexpr (std::is_same_v<Kind, text_content>) return "text";
    else if constexpr (std::is_same_v<Kind, text_reasoning_content>) return "reasoning";
    else if constexpr (std::is_same_v<Kind, data_content>) return "data";
    else if constexpr (std::is_same_v<Kind, uri_content>) return "uri";
    else if constexpr (std::is_same_v<Kind, function_call_content>) return "function_call";
    else if constexpr (std::is_same_v<Kind, function_result_content>) return "function_result";
    else if constexpr (std::is_same_v<Kind, usage_content>) return "usage";
    else if constexpr (std::is_same_v<Kind, refusal_content>) return "refusal";
    else if constexpr (std::is_same_v<Kind, function_approval_request_content>) return "function_approval_request";
    else if constexpr (std::is_same_v<Kind, function_approval_response_content>) return "function_approval_response";
    else if constexpr (std::is_same_v<Kind, output_errors_content>) return "output_errors";
    else if constexpr (std::is_same_v<Kind, handoff_content>) return "handoff";
    else {
        static_assert(std::is_same_v<Kind, error_content>, "unknown_content has no fixed type");
        return "error";
    }
}

bool is_known_type(std::string_view type) {
    for (std::string_view t : known_types)
        if (t == type) return true;
    return false;
}

bool is_reserved_key(std::string_view key) {
    return key == type_key || key == raw_key || key == properties_key;
}

boost::json::object& start(boost::json::value& json, std::string_view type) {
    boost::json::object& o = json.emplace_object();
    o[type_key] = type;
    return o;
}

void finish(boost::json::object& o, const content_metadata& metadata) {
    write_metadata(o, metadata.raw_representation, metadata.additional_properties);
}

void write_fields(boost::json::object& o, const text_content& c) { o["text"] = c.text; }
void write_fields(boost::json::object& o, const text_reasoning_content& c) {
    o["text"] = c.text;
    if (c.protected_data) o["protected_data"] = *c.protected_data;
}
void write_fields(boost::json::object& o, const data_content& c) {
    write_if_not_empty(o, "media_type", c.media_type);
    o["data"] = c.base64();
    write_if_not_empty(o, "name", c.name);
}
void write_fields(boost::json::object& o, const uri_content& c) {
    o["uri"] = c.uri;
    write_if_not_empty(o, "media_type", c.media_type);
}
void write_fields(boost::json::object& o, const function_call_content& c) {
    o["call_id"] = c.call_id;
    o["name"] = c.name;
    o["arguments"] = c.arguments;
}
void write_fields(boost::json::object& o, const function_result_content& c) {
    o["call_id"] = c.call_id;
    o["result"] = c.result;
    if (c.error) o["error"] = *c.error;
}
void write_fields(boost::json::object& o, const usage_content& c) {
    o["details"] = boost::json::value_from(c.details);
}
void write_fields(boost::json::object& o, const refusal_content& c) { o["refusal"] = c.refusal; }
void write_fields(boost::json::object& o, const function_approval_request_content& c) {
    o["id"] = c.id;
    o["call"] = boost::json::value_from(c.call);
}
void write_fields(boost::json::object& o, const function_approval_response_content& c) {
    o["id"] = c.id;
    o["approved"] = c.approved;
    o["call"] = boost::json::value_from(c.call);
    write_if_not_empty(o, "reason", c.reason);
}
void write_fields(boost::json::object& o, const output_errors_content& c) { o["errors"] = write_array(c.errors); }
void write_fields(boost::json::object& o, const handoff_content& c) {
    o["from"] = c.from;
    o["to"] = c.to;
    if (!c.reason.empty()) o["reason"] = c.reason;
}
void write_fields(boost::json::object& o, const error_content& c) {
    o["message"] = c.message;
    write_if_not_empty(o, "code", c.code);
    write_if_not_empty(o, "details", c.details);
}

template <class Kind>
void write_known(boost::json::value& json, const Kind& c) {
    boost::json::object& o = start(json, type_of<Kind>());
    write_fields(o, c);
    finish(o, c);
}

void write_unknown(boost::json::value& json, const unknown_content& c) {
    if (c.kind.empty()) fail("", "unknown_content has an empty kind");
    if (is_known_type(c.kind))
        fail("", "unknown_content kind \"" + c.kind +
                     "\" is a content type forma knows; use that kind instead");
    for (const auto& member : c.json)
        if (is_reserved_key(member.key()))
            fail("", "unknown_content json has member \"" + std::string(member.key()) +
                         "\", which every content uses for itself");
    boost::json::object& o = json.emplace_object();
    o.reserve(c.json.size() + 3);
    o[type_key] = c.kind;
    for (const auto& member : c.json) o[member.key()] = member.value();
    finish(o, c);
}

void read_metadata(const boost::json::object& o, content_metadata& metadata) {
    metadata.raw_representation = read_value(o, raw_key);
    metadata.additional_properties = read_object(o, properties_key);
}

// Readers of each kind's own fields, given the object; the type is already checked.
text_content read_fields(const boost::json::object& o, const text_content*) {
    return text_content(read_string(o, "text"));
}
text_reasoning_content read_fields(const boost::json::object& o, const text_reasoning_content*) {
    return text_reasoning_content(read_string(o, "text"), read_optional_string(o, "protected_data"));
}
data_content read_fields(const boost::json::object& o, const data_content*) {
    const std::string base64 = read_required_string(o, "data");
    std::string why;
    std::vector<std::byte> bytes = decode_base64(base64, why);
    if (!why.empty()) fail("/data", "expected standard base64, but " + why);
    return data_content(std::move(bytes), read_string(o, "media_type"), read_string(o, "name"));
}
uri_content read_fields(const boost::json::object& o, const uri_content*) {
    return uri_content(read_required_string(o, "uri"), read_string(o, "media_type"));
}
function_call_content read_fields(const boost::json::object& o, const function_call_content*) {
    return function_call_content(read_string(o, "call_id"), read_required_string(o, "name"),
                                 read_object(o, "arguments"));
}
function_result_content read_fields(const boost::json::object& o, const function_result_content*) {
    return function_result_content(read_string(o, "call_id"), read_value(o, "result"),
                                   read_optional_string(o, "error"));
}
usage_content read_fields(const boost::json::object& o, const usage_content*) {
    return usage_content(read_required<usage_details>(o, "details"));
}
refusal_content read_fields(const boost::json::object& o, const refusal_content*) {
    return refusal_content(read_string(o, "refusal"));
}
output_errors_content read_fields(const boost::json::object& o, const output_errors_content*) {
    return output_errors_content(read_array<output_error>(o, "errors"));
}
handoff_content read_fields(const boost::json::object& o, const handoff_content*) {
    return handoff_content(read_required_string(o, "from"), read_required_string(o, "to"), read_string(o, "reason"));
}
error_content read_fields(const boost::json::object& o, const error_content*) {
    return error_content(read_string(o, "message"), read_string(o, "code"), read_string(o, "details"));
}

function_approval_request_content read_fields(const boost::json::object& o,
                                              const function_approval_request_content*) {
    return function_approval_request_content(read_string(o, "id"),
                                             read_required<function_call_content>(o, "call"));
}
function_approval_response_content read_fields(const boost::json::object& o,
                                               const function_approval_response_content*) {
    const std::optional<bool> approved = read_optional_bool(o, "approved");
    if (!approved) fail("", "missing required member \"approved\"");
    return function_approval_response_content(read_string(o, "id"), *approved,
                                              read_required<function_call_content>(o, "call"),
                                              read_string(o, "reason"));
}

std::string_view read_type(const boost::json::object& o) {
    const boost::json::value* type = find(o, type_key);
    if (!type) fail("", "missing required member \"type\"");
    if (!type->is_string() || type->get_string().empty())
        fail_type("/type", "non-empty content type string", *type);
    return type->get_string();
}

template <class Kind>
Kind read_known(const boost::json::object& o) {
    Kind c = read_fields(o, static_cast<const Kind*>(nullptr));
    read_metadata(o, c);
    return c;
}

template <class Kind>
Kind read_checked(const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "content");
    const std::string_view type = read_type(o);
    if (type != type_of<Kind>())
        fail("/type", "expected \"" + std::string(type_of<Kind>()) + "\", got \"" +
                          std::string(type) + "\"");
    return read_known<Kind>(o);
}

unknown_content read_unknown(const boost::json::object& o) {
    unknown_content c;
    c.kind = std::string(read_type(o));
    for (const auto& member : o)
        if (!is_reserved_key(member.key())) c.json.emplace(member.key(), member.value());
    read_metadata(o, c);
    return c;
}

} // namespace

data_content data_content::from_base64(std::string_view base64, std::string media_type,
                                       std::string name) {
    std::string why;
    std::vector<std::byte> bytes = decode_base64(base64, why);
    if (!why.empty()) throw error("data_content::from_base64: the text is not base64: " + why);
    return data_content(std::move(bytes), std::move(media_type), std::move(name));
}

std::string data_content::base64() const { return encode_base64(data); }

std::string data_content::data_uri() const {
    const std::string encoded = base64();
    std::string out;
    out.reserve(5 + media_type.size() + 8 + encoded.size());
    out += "data:";
    out += media_type;
    out += ";base64,";
    out += encoded;
    return out;
}

std::string_view content_type(const content& c) noexcept {
    return std::visit(
        [](const auto& kind) -> std::string_view {
            using Kind = std::decay_t<decltype(kind)>;
            if constexpr (std::is_same_v<Kind, unknown_content>)
                return kind.kind;
            else
                return type_of<Kind>();
        },
        c);
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const content& c) {
    std::visit([&](const auto& kind) { boost::json::value_from(kind, json); }, c);
}

content tag_invoke(boost::json::value_to_tag<content>, const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "content");
    const std::string_view type = read_type(o);
    if (type == "text") return read_known<text_content>(o);
    if (type == "reasoning") return read_known<text_reasoning_content>(o);
    if (type == "data") return read_known<data_content>(o);
    if (type == "uri") return read_known<uri_content>(o);
    if (type == "function_call") return read_known<function_call_content>(o);
    if (type == "function_result") return read_known<function_result_content>(o);
    if (type == "usage") return read_known<usage_content>(o);
    if (type == "error") return read_known<error_content>(o);
    if (type == "refusal") return read_known<refusal_content>(o);
    if (type == "function_approval_request") return read_known<function_approval_request_content>(o);
    if (type == "function_approval_response") return read_known<function_approval_response_content>(o);
    if (type == "output_errors") return read_known<output_errors_content>(o);
    if (type == "handoff") return read_known<handoff_content>(o);
    return read_unknown(o);
}

#define FORMA_MODEL_CONTENT_KIND(Kind)                                                             \
    void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const Kind& c) {        \
        write_known(json, c);                                                                      \
    }                                                                                              \
    Kind tag_invoke(boost::json::value_to_tag<Kind>, const boost::json::value& json) {             \
        return read_checked<Kind>(json);                                                           \
    }
FORMA_MODEL_CONTENT_KIND(text_content)
FORMA_MODEL_CONTENT_KIND(text_reasoning_content)
FORMA_MODEL_CONTENT_KIND(data_content)
FORMA_MODEL_CONTENT_KIND(uri_content)
FORMA_MODEL_CONTENT_KIND(function_call_content)
FORMA_MODEL_CONTENT_KIND(function_result_content)
FORMA_MODEL_CONTENT_KIND(usage_content)
FORMA_MODEL_CONTENT_KIND(error_content)
FORMA_MODEL_CONTENT_KIND(refusal_content)
FORMA_MODEL_CONTENT_KIND(function_approval_request_content)
FORMA_MODEL_CONTENT_KIND(function_approval_response_content)
FORMA_MODEL_CONTENT_KIND(output_errors_content)
FORMA_MODEL_CONTENT_KIND(handoff_content)
#undef FORMA_MODEL_CONTENT_KIND

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const unknown_content& c) {
    write_unknown(json, c);
}

unknown_content tag_invoke(boost::json::value_to_tag<unknown_content>, const boost::json::value& json) {
    return read_unknown(expect_object(json, "content"));
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const output_error& e) {
    json = boost::json::object{{"path", e.path}, {"reason", e.reason}};
}

output_error tag_invoke(boost::json::value_to_tag<output_error>, const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "output error");
    return output_error{read_string(o, "path"), read_required_string(o, "reason")};
}

std::string correction_text(const output_errors_content& c) {
    std::string out = c.errors.size() == 1 ? "Your answer does not match the requested format:\n"
                                           : "Your answer does not match the requested format (" +
                                                 std::to_string(c.errors.size()) + " errors):\n";
    for (const output_error& e : c.errors) {
        out += "- at ";
        out += e.path.empty() ? std::string_view("the top level") : std::string_view(e.path);
        out += ": ";
        out += e.reason;
        out += '\n';
    }
    return out + "Answer again with JSON that matches the requested schema, and nothing else.";
}

} // namespace forma
