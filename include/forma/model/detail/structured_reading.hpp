#pragma once

#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>

#include <boost/describe/class.hpp>
#include <boost/system/result.hpp>

#include <exception>
#include <string>
#include <string_view>

namespace forma {

template <class T>
class agent_response;

namespace detail {

/** Finds the text a structured answer is read from: the last assistant message
    that has text. Sets `text` and returns null, or returns the error:
    refusal_error (a refusal in that message), output_truncated_error (finish
    reason "length"), json_error (no text, or the text is `null`). `text` points
    into the response, or into `storage` when the message has several text parts.
*/
std::exception_ptr structured_output_text(const agent_response<void>& response, std::string_view& text,
                                          std::string& storage);

template <class T>
struct data_wrapper {
    T data;
    BOOST_DESCRIBE_CLASS(data_wrapper, (), (data), (), ())
};

/// Reads `{"data": <T>}`, or the text as a T when it has no "data" member.
template <class T>
boost::system::result<T, json_error> try_read_wrapped(std::string_view text, const parse_options& options) {
    auto wrapped = try_from_json<data_wrapper<T>>(text, options);
    if (wrapped) return std::move(wrapped->data);
    if (!wrapped.error().path().empty()) return wrapped.error(); // inside "data": report it
    return try_from_json<T>(text, options);
}

/// The answer of `response` read as a T (unwrapping `{"data": ...}` when `wrapped`).
template <class T, class Response>
boost::system::result<T, std::exception_ptr> read_structured(const Response& response, bool wrapped,
                                                             const parse_options& options) {
    std::string_view text;
    std::string storage;
    if (auto error = structured_output_text(response, text, storage)) return error;
    auto parsed = wrapped ? try_read_wrapped<T>(text, options) : try_from_json<T>(text, options);
    if (parsed) return std::move(*parsed);
    return std::make_exception_ptr(parsed.error());
}

} // namespace detail
} // namespace forma
