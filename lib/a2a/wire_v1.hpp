#pragma once
// A2A 1.0's JSON-RPC binding, as a translation of the 0.3 shapes that the rest of lib/a2a builds
// and reads: method names, params, results and stream events, both ways. 1.0 is proto-JSON: no
// "kind", flat parts ({"text"} | {"data"} | {"raw", "mediaType", "filename"} | {"url", ...}),
// enums by name ("ROLE_USER", "TASK_STATE_COMPLETED"), results that say what they hold by their
// one key ({"task"} | {"message"} | {"statusUpdate"} | {"artifactUpdate"}), and returnImmediately
// where 0.3 has blocking. Reading 1.0 also takes snake_case keys and numeric enums.

#include <forma/a2a/agent_card.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string_view>

namespace forma::a2a::detail::v1 {

/// The header that names the version of a request ("A2A-Version: 1.0"); absent means 0.3.
inline constexpr std::string_view version_header = "A2A-Version";

/// The version a header or a card's interface names: "1.0" and "1.0.x" are 1.0, "0.3" and "0.3.x" 0.3.
std::optional<protocol_version> version_named(std::string_view text) noexcept;

/// "SendMessage" for "message/send", and so on for every method both versions have.
std::optional<std::string_view> method_of(std::string_view method_0_3) noexcept;
/// "message/send" for "SendMessage", and so on.
std::optional<std::string_view> legacy_method_of(std::string_view method_1_0) noexcept;

/// A 0.3 request's params in 1.0 shape, and back.
boost::json::object params(const boost::json::object& params_0_3);
boost::json::object legacy_params(const boost::json::object& params_1_0);

/// A task state in 0.3's naming ("working"), from 1.0's name or number; another value as it came.
boost::json::value legacy_state(const boost::json::value& state);

/** A 0.3 result in 1.0 shape: `wrapped` (SendMessage and the streams' events) puts it under
    the key that says what it is; GetTask and CancelTask answer with the bare task, ListTasks
    with its list ({"tasks", ...}) of bare tasks.
*/
boost::json::value result(const boost::json::value& result_0_3, bool wrapped);
/// A 1.0 result in 0.3 shape: wrapped or bare, a Task, a Message or an update. Anything else as it came.
boost::json::value legacy_result(const boost::json::value& result_1_0);

/// The google.rpc.ErrorInfo list 1.0 puts in an A2A error's data: [{"@type", "reason", "domain"}].
boost::json::value error_data(std::int64_t code);

} // namespace forma::a2a::detail::v1
