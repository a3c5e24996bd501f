#pragma once
// call_context for one tools/call of a server_session: logs, progress, sampling and elicitation
// go to the client through the call's own channel (its POST's event stream, or stdio).

#include "server_session.hpp"

#include <forma/mcp/server_tool.hpp>

namespace forma::mcp::detail {

class session_call final : public call_context {
public:
    session_call(server_session& session, boost::json::object arguments, std::optional<boost::json::value> progress_token,
                 server_session::notify_function send)
        : session_(session), arguments_(std::move(arguments)), progress_token_(std::move(progress_token)), send_(std::move(send)) {}

    const boost::json::object& arguments() const noexcept override { return arguments_; }
    const boost::json::object& client_capabilities() const noexcept override { return session_.client_capabilities(); }
    void log(log_level level, boost::json::value data, std::string logger = {}) override;
    void report_progress(double value, std::optional<double> total = {}, std::string message = {}) override;
    boost::asio::awaitable<sampling_result> create_message(sampling_request request) override;
    boost::asio::awaitable<elicitation_result> elicit(std::string message, boost::json::object requested_schema) override;

private:
    void require_capability(std::string_view name, std::string_view what) const;

    server_session& session_;
    boost::json::object arguments_;
    std::optional<boost::json::value> progress_token_;
    server_session::notify_function send_;
};

} // namespace forma::mcp::detail
