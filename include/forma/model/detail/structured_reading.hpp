#pragma once

#include <forma/json/detail/wrapped_reading.hpp>
#include <forma/json/from_json.hpp>
#include <forma/model/answer_error.hpp>

#include <boost/system/result.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace forma {

template <class T>
class agent_response;

namespace model_detail {

/** Finds the text a structured answer is read from: the last assistant message
    that has text. Sets `text` and returns nothing, or returns the error:
    refusal_error (a refusal in that message), output_truncated_error (finish
    reason "length"), json_error (no text, or the text is `null`). `text` points
    into the response, or into `storage` when the message has several text parts.
*/
std::optional<answer_error> structured_output_text(const agent_response<void>& response, std::string_view& text,
                                                   std::string& storage);

/// The answer of `response` read as a T (unwrapping `{"data": ...}` when `wrapped`).
template <class T, class Response>
boost::system::result<T, answer_error> read_structured(const Response& response, bool wrapped,
                                                       const parse_options& options) {
    std::string_view text;
    std::string storage;
    if (auto error = structured_output_text(response, text, storage)) return std::move(*error);
    auto parsed = wrapped ? json_detail::try_read_wrapped<T>(text, options) : try_from_json<T>(text, options);
    if (parsed) return std::move(*parsed);
    return answer_error(std::move(parsed.error()));
}

} // namespace model_detail
} // namespace forma
