#include "event_reader.hpp"

#include <forma/net/stream_error.hpp>

namespace forma::net::detail {

boost::asio::awaitable<std::optional<sse_event>> event_reader::next() {
    for (;;) {
        if (const sse_event* event = parser_.next(pending_)) co_return *event;
        pending_ = co_await connection_->read_some(limits_);
        if (pending_.empty()) {
            if (parser_.in_event())
                throw stream_error(stream_error_kind::incomplete, "the event stream ended in the middle of an event");
            co_return std::nullopt;
        }
    }
}

} // namespace forma::net::detail
