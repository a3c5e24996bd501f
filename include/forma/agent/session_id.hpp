#pragma once

#include <boost/json/conversion.hpp>
#include <boost/json/value.hpp>

#include <compare>
#include <cstddef>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace forma {

/** The identifier of a session: what a session_store keys it by, and what a run names to
    continue a stored conversation (`agent.run("...", forma::session_id("conv-42"))`).
    A type of its own, so it is never taken for a message.
*/
class session_id {
public:
    session_id() = default;
    explicit session_id(std::string value) : value_(std::move(value)) {}

    const std::string& str() const noexcept { return value_; }
    bool empty() const noexcept { return value_.empty(); }

    friend bool operator==(const session_id&, const session_id&) = default;
    friend std::strong_ordering operator<=>(const session_id&, const session_id&) = default;
    friend std::ostream& operator<<(std::ostream& out, const session_id& id) { return out << id.value_; }

private:
    std::string value_;
};

/// A session id is a JSON string.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const session_id& id);
/// @throws json_error when `json` is not a string.
session_id tag_invoke(boost::json::value_to_tag<session_id>, const boost::json::value& json);

} // namespace forma

template <>
struct std::hash<forma::session_id> {
    std::size_t operator()(const forma::session_id& id) const noexcept { return std::hash<std::string>{}(id.str()); }
};
