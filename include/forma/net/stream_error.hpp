#pragma once

#include <forma/error.hpp>

#include <string>

namespace forma {

/// What went wrong with a streamed response.
enum class stream_error_kind {
    /// One server-sent event grew past the configured limit.
    event_too_large,
    /// The stream as a whole carried more bytes than the configured limit.
    stream_too_large,
    /// The stream ended before it said it was complete: what arrived is a partial answer.
    incomplete,
    /// The stream broke its protocol (an event the provider never sends).
    protocol,
};

/** A streamed response that cannot be trusted as a whole answer.

    Thrown instead of handing out a partial answer: a stream cut short, an event
    bigger than the limit a client set to bound its memory, or bytes that are not
    the protocol. `what()` says which, e.g. "the response stream ended before
    [DONE] and before a finish reason: the answer is incomplete".
*/
class stream_error : public error {
public:
    stream_error(stream_error_kind kind, const std::string& message);
    ~stream_error() override;

    stream_error_kind kind() const noexcept { return kind_; }

private:
    stream_error_kind kind_;
};

} // namespace forma
