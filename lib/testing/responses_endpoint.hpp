#pragma once

// The local model server's Responses API, Beast-free: POST .../responses creates a response,
// GET .../responses/{id} retrieves it (or resumes its stream), POST .../responses/{id}/cancel
// cancels a background run. It keeps the responses it stores; a background run goes on the
// clock alone: its status and which of its events are due are functions of the time since
// its creation, so nothing runs between requests. model_server.cpp does the transport.

#include "answer_decision.hpp"

#include <forma/testing/model_server.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace forma::testing::detail {

class responses_endpoint {
public:
    using clock = std::chrono::steady_clock;

    /// At most this many stored responses are kept; the oldest is forgotten first.
    static constexpr std::size_t max_stored = 10'000;

    /// Whether `target`'s path is `.../responses`, `.../responses/{id}` or `.../responses/{id}/cancel`.
    static bool serves(std::string_view target) noexcept;

    /** The reply to a request on a path this serves, as of `now` (see model_server): 405 for a
        method the path does not take, 400 for a body that is not a JSON object with `input`,
        404 for an unknown response id; else the Response or its events.
    */
    scripted_reply answer(std::string_view method, std::string_view target, std::string_view body,
                          const generation& options, clock::time_point now);

private:
    struct run;

    scripted_reply create(std::string_view body, const generation& options, clock::time_point now);
    scripted_reply retrieve(std::string_view id, std::string_view query, const generation& options,
                            clock::time_point now) const;
    scripted_reply cancel(std::string_view id, clock::time_point now) const;
    /** The events of `r` after the first `first` as a stream: those due at once, the rest as
        they fall due; a cancel ends it before the first event due after the cancel.
    */
    static scripted_reply stream(std::shared_ptr<const run> r, std::size_t first, const generation& options,
                                 clock::time_point now);
    std::shared_ptr<run> find(std::string_view id) const;
    void keep(std::shared_ptr<run> r);

    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<run>, std::less<>> runs_;
    std::deque<std::string> order_; // ids, oldest first
};

} // namespace forma::testing::detail
