// sse_parser: where the bytes are cut never changes the events, the stream's
// state or whether the event-size limit is hit; no event is larger than the limit.
//
// Input: a byte choosing max_event_size, a byte seeding the piece sizes, then the stream.
#include "fuzz_support.hpp"

#include <forma/net/sse_parser.hpp>
#include <forma/net/stream_error.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace {

struct outcome {
    std::vector<forma::net::sse_event> events;
    bool too_large = false;
    bool in_event = false;
    std::string last_event_id;
    std::optional<std::chrono::milliseconds> retry;
    bool operator==(const outcome&) const = default;
};

outcome run(forma::net::sse_parser& parser, const std::vector<std::string_view>& pieces,
            std::size_t limit) {
    outcome out;
    try {
        for (std::string_view piece : pieces)
            parser.feed(piece, [&](const forma::net::sse_event& e) {
                // "message", the type of an event without one, is no byte of the stream.
                const bool type_fits = e.type.size() <= limit || e.type == "message";
                forma_fuzz::check(e.data.size() <= limit && type_fits && e.id.size() <= limit,
                                  "an event is larger than max_event_size");
                out.events.push_back(e);
            });
    } catch (const forma::stream_error& e) {
        forma_fuzz::check(e.kind() == forma::stream_error_kind::event_too_large,
                          "unexpected stream_error kind");
        out.too_large = true;
        return out; // the stream is broken: its state is not compared
    }
    out.in_event = parser.in_event();
    out.last_event_id = parser.last_event_id();
    out.retry = parser.retry();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // Small limits are hit often; 255 keeps the default (1 MiB).
    const std::size_t limit =
        data[0] == 255 ? forma::net::sse_parser_options{}.max_event_size : data[0] + 1u;
    const std::string_view stream(reinterpret_cast<const char*>(data) + 2, size - 2);

    forma::net::sse_parser parser({.max_event_size = limit});
    const outcome whole = run(parser, {stream}, limit);

    forma::net::sse_parser cut_parser({.max_event_size = limit});
    const outcome cut = run(cut_parser, forma_fuzz::pieces(stream, data[1]), limit);
    if (!(cut == whole)) forma_fuzz::fail("cutting the bytes differently changed the outcome");

    cut_parser.reset(); // a reset parser reads a stream as a new one does
    forma_fuzz::check(run(cut_parser, {stream}, limit) == whole,
                      "a reset parser reads differently from a new one");
    return 0;
}
