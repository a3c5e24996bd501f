#pragma once

#include <forma/net/sse_event.hpp>
#include <forma/net/stream_error.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace forma::net {

/// Limits of an sse_parser.
struct sse_parser_options {
    /** The most bytes one event may have: its field lines together (names
        and values, not line ends), and any single line, comments included.
        Past it, next() throws stream_error (stream_error_kind::event_too_large)
        instead of growing without bound on a server that never ends an event
        or a line. What the parser holds stays below about this size.
    */
    std::size_t max_event_size = 1024 * 1024;
};

/** Reads a `text/event-stream` body incrementally, as it arrives, by the
    HTML Living Standard's rules ("Interpreting an event stream").

    Bytes may be fed in chunks split anywhere, even inside a CRLF; lines end in
    CRLF, LF or CR; a UTF-8 BOM at the start is skipped; comment lines (":...")
    are ignored; `data:` lines are joined with "\n"; one space after the colon
    is dropped; a line without a colon is a field with an empty value; an event
    with no data is not dispatched; unknown fields are ignored.

    Linear in the input, and never holds more than the event being read: a
    line wholly inside a chunk is read in place, only a line cut by the end of
    a chunk is copied until the rest arrives.

        forma::net::sse_parser parser;
        std::string_view bytes = chunk;
        while (const forma::net::sse_event* e = parser.next(bytes)) handle(*e);

    After an exception the stream is broken: call reset() before reusing the parser.
*/
class sse_parser {
public:
    explicit sse_parser(sse_parser_options options = {});

    /** Consumes bytes from the front of `input` until an event is complete or
        `input` is used up.

        @returns the event, valid until the next call on this parser, or null
        when `input` is used up (an incomplete line is kept for the next call).
        @throws stream_error (event_too_large) when the event being read grows
        past `max_event_size`.
    */
    const sse_event* next(std::string_view& input);

    /// Calls `on_event(const sse_event&)` for each event completed by `bytes`.
    template <class OnEvent>
    void feed(std::string_view bytes, OnEvent&& on_event) {
        while (const sse_event* e = next(bytes)) on_event(*e);
    }

    /** Whether an event has begun (a field line, or part of a line, was read)
        but the blank line that dispatches it has not come. At the end of a
        stream such an event was cut short; the standard discards it.
    */
    bool in_event() const noexcept { return fields_seen_ || !line_.empty(); }

    /// The latest `retry:` value of the stream, if any.
    std::optional<std::chrono::milliseconds> retry() const noexcept { return retry_; }
    /// The last event ID of the stream so far ("" when none was set).
    const std::string& last_event_id() const noexcept { return id_; }

    /// Forgets everything read, as for a new stream; keeps the options.
    void reset();

private:
    bool process_line(std::string_view line);
    bool dispatch();
    [[noreturn]] void fail_too_large() const;
    void skip_bom(std::string_view& input);

    sse_parser_options options_;
    sse_event event_;            // handed out by next(); its strings' capacity is reused
    std::string line_;           // a line cut by the end of a chunk
    std::string data_;           // data lines, each followed by "\n"
    std::string type_;           // the event type buffer
    std::string id_;             // the last event ID buffer
    std::optional<std::chrono::milliseconds> retry_;
    std::optional<std::chrono::milliseconds> event_retry_;
    std::size_t event_size_ = 0; // bytes of the current event's field lines
    unsigned bom_matched_ = 0;   // bytes of a BOM seen at the start
    bool bom_done_ = false;      // past the place where a BOM may be
    bool skip_lf_ = false;       // the last line ended in CR at the end of a chunk
    bool fields_seen_ = false;   // a field line of the current event was read
};

} // namespace forma::net
