#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace forma::net {

/** One server-sent event, as the HTML Living Standard's event-stream
    interpretation dispatches it.
*/
struct sse_event {
    /// The `event:` field, or "message" when the event had none.
    std::string type = "message";
    /// The `data:` lines joined with "\n".
    std::string data;
    /// The last event ID of the stream so far: set by an `id:` field, kept
    /// across events until another one changes it.
    std::string id;
    /// The reconnection time a `retry:` field of this event set, if any.
    std::optional<std::chrono::milliseconds> retry;

    friend bool operator==(const sse_event&, const sse_event&) = default;
};

} // namespace forma::net
