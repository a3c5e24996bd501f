#include "session_call.hpp"

#include <forma/mcp/mcp_error.hpp>

#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "sampling_wire.hpp"

namespace forma::mcp::detail {

namespace json = boost::json;
namespace rpc = json_detail::json_rpc;

void session_call::log(log_level level, json::value data, std::string logger) {
    if (!send_ || !session_.logs(level)) return;
    json::object params{{"level", to_string(level)}, {"data", std::move(data)}};
    if (!logger.empty()) params["logger"] = json_detail::valid_utf8(logger);
    send_(rpc::notification("notifications/message", std::move(params)));
}

void session_call::report_progress(double value, std::optional<double> total, std::string message) {
    if (!send_ || !progress_token_) return;
    json::object params{{"progressToken", *progress_token_}, {"progress", value}};
    if (total) params["total"] = *total;
    if (!message.empty()) params["message"] = json_detail::valid_utf8(message);
    send_(rpc::notification("notifications/progress", std::move(params)));
}

void session_call::require_capability(std::string_view name, std::string_view what) const {
    if (!session_.client_capabilities().contains(name)) {
        throw mcp_error(session_.describe_client() + " did not declare the " + std::string(name) + " capability: it cannot " + std::string(what),
                        session_.describe_client());
    }
}

boost::asio::awaitable<sampling_result> session_call::create_message(sampling_request request) {
    require_capability("sampling", "answer with its model");
    const json::object answer = co_await session_.ask("sampling/createMessage", sampling_params(request), send_);
    co_return read_sampling_result(answer, session_.describe_client());
}

boost::asio::awaitable<elicitation_result> session_call::elicit(std::string message, json::object requested_schema) {
    require_capability("elicitation", "ask its user");
    json::object params{{"message", json_detail::valid_utf8(message)}, {"requestedSchema", std::move(requested_schema)}};
    const json::object answer = co_await session_.ask("elicitation/create", std::move(params), send_);
    co_return read_elicitation_result(answer, session_.describe_client());
}

} // namespace forma::mcp::detail
