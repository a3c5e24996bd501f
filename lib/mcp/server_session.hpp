#pragma once
// One MCP client's session with forma::mcp::server, whatever carries it (stdio, Streamable
// HTTP): the handshake, tools, resources, prompts, completion, logging, and the requests the
// server sends the client (sampling, elicitation) with their answers.

#include "server_catalog.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace forma::mcp::detail {

class server_session {
public:
    /// Sends one message to the client while a request is handled: a notification, or a
    /// request of the server's own (sampling, elicitation) whose answer comes back to handle().
    using notify_function = std::function<void(std::string message)>;

    explicit server_session(std::shared_ptr<const server_catalog> catalog) : catalog_(std::move(catalog)) {}

    /** Handles one message from the client. A request gets its answer as the returned text
        (nullopt when it was canceled); a notification or a response returns nullopt at once.
        `notify` carries what the server sends while the request runs.
    */
    boost::asio::awaitable<std::optional<std::string>> handle(const boost::json::value& message, notify_function notify);

    /// Whether a request for progress notifications came with the message (a tools/call with a progressToken).
    static bool wants_progress(const boost::json::value& message);

    bool initialized() const noexcept { return !protocol_version_.empty(); }
    const std::string& protocol_version() const noexcept { return protocol_version_; }
    /// Cancels every running call (the transport ended).
    void cancel_all();

    /// Where notifications outside any request go (stdio: the output; HTTP: none yet).
    void set_unsolicited(notify_function send) { unsolicited_ = std::move(send); }
    /// notifications/resources/updated, when the client subscribed to `uri`.
    void resource_updated(const std::string& uri);

    // What a running call reaches through its call_context.
    const boost::json::object& client_capabilities() const noexcept { return client_capabilities_; }
    bool logs(log_level level) const noexcept { return level >= log_level_; }
    /// Sends `method` to the client through `send` and waits for its answer.
    /// @throws mcp_error for an error answer or none within client_request_timeout.
    boost::asio::awaitable<boost::json::object> ask(std::string_view method, boost::json::object params, const notify_function& send);
    std::string describe_client() const;

private:
    struct asked {
        explicit asked(const boost::asio::any_io_executor& ex) : answered(ex) {}
        boost::asio::steady_timer answered;
        std::optional<boost::json::object> result;
        std::optional<std::string> refusal;
    };

    boost::asio::awaitable<boost::json::object> call_tool(const boost::json::value& id, const boost::json::object& params,
                                                          notify_function notify);
    boost::asio::awaitable<boost::json::object> cancelable(const boost::json::value& id, boost::asio::awaitable<boost::json::object> work);
    boost::json::object initialize(const boost::json::object& params);
    void take_answer(const boost::json::object& response);

    std::shared_ptr<const server_catalog> catalog_;
    std::string protocol_version_;
    boost::json::object client_capabilities_;
    std::string client_name_;
    log_level log_level_ = log_level::debug;
    std::set<std::string, std::less<>> subscriptions_;
    notify_function unsolicited_;
    std::map<std::string, std::shared_ptr<boost::asio::cancellation_signal>> calls_; // serialized request id -> its stop
    std::map<std::int64_t, std::shared_ptr<asked>> asked_;                          // the server's requests awaiting answers
    std::int64_t next_ask_id_ = 1;
};

/// Whether forma speaks MCP `version`.
bool supported_protocol_version(std::string_view version) noexcept;

} // namespace forma::mcp::detail
