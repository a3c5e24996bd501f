#pragma once

#include <boost/asio/awaitable.hpp>

#include <chrono>

namespace forma {

/** Where concurrency_limiter keeps its request and token buckets when a fleet shares one limit
    (redis::rate_limit_store): each instance takes from the same buckets.
*/
class rate_limit_store {
public:
    virtual ~rate_limit_store();

    /** Takes one request and `tokens` from buckets that hold a minute's worth at these rates
        (0: that bucket has no limit), refilled continuously, when both hold enough; else takes
        nothing and returns how long until they will (zero: taken). A request larger than a
        minute's worth waits for a full bucket. Atomic across the instances that share the store.
        @throws error (the store's own kind) when the store cannot be asked.
    */
    virtual boost::asio::awaitable<std::chrono::milliseconds> take(double requests_per_minute,
                                                                   double tokens_per_minute, double tokens) = 0;
};

} // namespace forma
