#include <forma/model/continuation_token.hpp>

#include <forma/error.hpp>

#include "../json/json_text.hpp"
#include "json_support.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace forma {

continuation_token::continuation_token(boost::json::value value) : value_(std::move(value)) {
    if (value_.is_null()) throw error("a continuation_token cannot be null");
}

std::string continuation_token::to_string() const { return json_detail::serialize_utf8(value_); }

continuation_token continuation_token::parse(std::string_view text) {
    boost::system::error_code ec;
    boost::json::value value = boost::json::parse(text, ec);
    if (ec) throw json_error("", "continuation token is not valid JSON: " + ec.message());
    if (value.is_null()) throw json_error("", "continuation token is null");
    return continuation_token(std::move(value));
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json,
                const continuation_token& token) {
    json = token.value();
}

continuation_token tag_invoke(boost::json::value_to_tag<continuation_token>,
                              const boost::json::value& json) {
    if (json.is_null()) model_detail::fail("", "expected continuation token, got null");
    return continuation_token(json);
}

} // namespace forma
