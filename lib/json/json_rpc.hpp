#pragma once
// JSON-RPC 2.0 for the MCP and A2A clients: the envelopes they send, what a message they get is,
// and the outcome of a response. The one place the protocol is written; the callers throw their
// own errors (mcp_error, a2a_error) with the sentences made here.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::json_detail::json_rpc {

/// `{"jsonrpc":"2.0","id":id,"method":method,"params":params}` as text.
std::string request(std::int64_t id, std::string_view method, boost::json::object params);
/// A request without an id: no answer is wanted. Empty params are left out.
std::string notification(std::string_view method, boost::json::object params);
/// The answer to a peer's request `id`.
std::string result_reply(const boost::json::value& id, boost::json::value result);
std::string error_reply(const boost::json::value& id, std::int64_t code, std::string_view message);
/// The same with the error's `data` member (left out when null).
std::string error_reply(const boost::json::value& id, std::int64_t code, std::string_view message, boost::json::value data);

// The standard error codes (JSON-RPC 2.0, section 5.1).
inline constexpr std::int64_t parse_error = -32700;
inline constexpr std::int64_t invalid_request = -32600;
inline constexpr std::int64_t method_not_found = -32601;
inline constexpr std::int64_t invalid_params = -32602;
inline constexpr std::int64_t internal_error = -32603;

enum class message_kind { request, notification, response, invalid };

/// What a received message is: a response is a message without a method whose id is an integer
/// (forma only sends those).
struct message_view {
    message_kind kind = message_kind::invalid;
    const boost::json::value* id = nullptr;        // request, response
    std::string_view method{};                      // request, notification
    const boost::json::value* params = nullptr;     // request, notification; may be null
    std::optional<std::int64_t> response_id{};      // response
};
message_view classify(const boost::json::value& message);

/** What a server received, read as JSON-RPC 2.0 requires: `"jsonrpc": "2.0"`, a string `method`,
    an id that is a string or an integer (never null, never fractional: MCP and A2A alike), and
    `params`, when present, an object or an array. Anything else is `invalid`, with `problem`
    saying what; a response is told from the rest as `classify` tells it.
*/
struct checked_message {
    message_view view;
    std::string problem; // empty unless view.kind is invalid
};
checked_message classify_received(const boost::json::value& message);

/// The id an error answer to `message` carries: its id where that is a string or a number, else
/// null (JSON-RPC 2.0: null only when the request's id cannot be told).
boost::json::value answer_id(const boost::json::value& message);

/// A response's error: the peer's message and its JSON-RPC code, as one sentence.
struct response_error {
    std::string text;                  // "<message> (JSON-RPC error <code>)", valid UTF-8
    std::optional<std::int64_t> code;  // absent when the peer sent none
};

/// A response's result or its error; neither, for a response that has neither.
struct response_outcome {
    std::optional<boost::json::value> result;
    std::optional<response_error> error;
};
response_outcome outcome(boost::json::object& response);

/** The messages of a body, each as text: one message, or the elements of a batch (an array).
    A body that is neither is the one message, for the caller to report.
*/
std::vector<std::string> messages_of(std::string body);

/// Whether `message` (text) answers request `id`: a response with that id.
bool answers(std::string_view message, std::int64_t id);
/// The id of `message` (text) when it is a request with an integer id.
std::optional<std::int64_t> request_id_of(std::string_view message);

} // namespace forma::json_detail::json_rpc
