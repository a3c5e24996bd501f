#pragma once

#include <forma/json/json_error.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace forma {

/** Token counts of one model call, or of several summed.

    A count the provider did not report is null, not 0, so that "unknown" and
    "none" stay apart through sums and storage.
*/
struct usage_details {
    std::optional<std::int64_t> input_token_count{};
    std::optional<std::int64_t> output_token_count{};
    std::optional<std::int64_t> total_token_count{};
    /// Input tokens served from the provider's prompt cache (part of the input count).
    std::optional<std::int64_t> cached_input_token_count{};
    /// Output tokens spent on reasoning (part of the output count).
    std::optional<std::int64_t> reasoning_token_count{};
    /// Provider counts forma has no member for, by name.
    std::map<std::string, std::int64_t, std::less<>> additional_counts{};

    /** Adds `other` count by count: null + null stays null, null + 3 is 3.

        Additional counts are summed by name. Sums saturate at the limits of
        std::int64_t instead of overflowing.
    */
    usage_details& operator+=(const usage_details& other);

    friend usage_details operator+(usage_details a, const usage_details& b) {
        a += b;
        return a;
    }

    friend bool operator==(const usage_details&, const usage_details&) = default;
};

/// Writes an object with the non-null counts, e.g. `{"input_token_count":1}`.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const usage_details& usage);
/// @throws json_error if `json` is not an object or a count is not a 64-bit integer.
usage_details tag_invoke(boost::json::value_to_tag<usage_details>, const boost::json::value& json);

} // namespace forma
