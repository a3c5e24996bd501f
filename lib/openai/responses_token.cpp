#include <forma/openai/responses_token.hpp>

#include <forma/error.hpp>

#include "../json/body_excerpt.hpp"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::openai {
namespace {

constexpr std::string_view token_kind = "openai.responses";
constexpr std::size_t max_quoted = 200;
constexpr std::size_t max_id_size = 256;

[[noreturn]] void not_ours(const continuation_token& token, std::string_view why) {
    throw error("the continuation token " + json_detail::body_excerpt(token.to_string(), max_quoted) + " is not one responses_client issued (" + std::string(why) +
                "); pass back the token a responses_client run returned, unchanged");
}

} // namespace

bool responses_token::valid_id(std::string_view id) noexcept {
    if (id.empty() || id.size() > max_id_size) return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

continuation_token responses_token::to_continuation_token() const {
    boost::json::object value{{"kind", token_kind}, {"response_id", response_id}};
    if (sequence_number) value["sequence_number"] = *sequence_number;
    return continuation_token(boost::json::value(std::move(value)));
}

responses_token responses_token::from(const continuation_token& token) {
    const boost::json::object* value = token.value().if_object();
    if (!value) not_ours(token, "it is not a JSON object");
    const boost::json::value* kind = value->if_contains("kind");
    if (!kind || !kind->is_string() || kind->get_string() != token_kind)
        not_ours(token, "its \"kind\" is not \"openai.responses\"");
    const boost::json::value* id = value->if_contains("response_id");
    if (!id || !id->is_string()) not_ours(token, "it has no \"response_id\" string");
    if (!valid_id(id->get_string()))
        not_ours(token, "its \"response_id\" is not up to 256 letters, digits, '_' and '-'");
    responses_token out{.response_id = std::string(id->get_string())};
    if (const boost::json::value* sequence = value->if_contains("sequence_number")) {
        if (!sequence->is_int64() || sequence->get_int64() < 0)
            not_ours(token, "its \"sequence_number\" is not a non-negative integer");
        out.sequence_number = sequence->get_int64();
    }
    return out;
}

} // namespace forma::openai
