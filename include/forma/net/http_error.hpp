#pragma once

#include <forma/error.hpp>

#include <string>

namespace forma {

/** A provider answered with an error: an HTTP status other than 2xx, or an
    error object inside a response or stream.

    `what()` reads "HTTP 429 (rate_limit_exceeded): Rate limit reached for ..."
    (the provider's code, or its type when there is no code, in parentheses).
    An error reported inside a stream after a successful status has status 0
    and reads "error in the response stream (server_error): ...".

    Built only from the status and the provider's error object, every field
    redacted (see registered_secret): a provider that echoes the API key in
    its code, type, message or param does not put it in the error.
*/
class http_error : public error {
public:
    /** @param status the HTTP status, or 0 for an error inside a stream.
        @param type the provider's error type, e.g. "invalid_request_error"; may be empty.
        @param message the provider's message; may be empty.
        @param code the provider's error code, e.g. "rate_limit_exceeded"; may be empty.
        @param param the request member the error is about, e.g. "messages"; may be empty.
    */
    http_error(int status, std::string type, std::string message, std::string code = {},
               std::string param = {});
    ~http_error() override;

    /// The HTTP status, or 0 when the error came inside a stream.
    int status() const noexcept { return status_; }
    /// The provider's error type, e.g. "invalid_request_error" ("" when it sent none).
    const std::string& type() const noexcept { return type_; }
    /// The provider's message as it sent it ("" when it sent none).
    const std::string& message() const noexcept { return message_; }
    /// The provider's error code, e.g. "rate_limit_exceeded"; a numeric code as its digits.
    const std::string& code() const noexcept { return code_; }
    /// The request member the error is about, when the thrower knows it (openai::chat_client
    /// does not read it from the provider's body, so it is "" there).
    const std::string& param() const noexcept { return param_; }

private:
    int status_;
    std::string type_;
    std::string message_;
    std::string code_;
    std::string param_;
};

} // namespace forma
