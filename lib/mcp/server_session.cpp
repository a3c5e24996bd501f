#include "server_session.hpp"

#include <forma/chat/tool_arguments_error.hpp>
#include <forma/error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "../text/failure_text.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <charconv>

namespace forma::mcp::detail {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace rpc = json_detail::json_rpc;

constexpr std::array protocol_versions{"2025-06-18", "2025-03-26", "2024-11-05"};
using rpc::invalid_params;
using rpc::invalid_request;

struct rpc_failure {
    std::int64_t code;
    std::string message;
};

const json::object& params_of(const rpc::message_view& m) {
    static const json::object none;
    return m.params && m.params->is_object() ? m.params->get_object() : none;
}

json::object tool_entry(const function_tool& tool) {
    json::object entry{{"name", tool.name()}, {"description", tool.description()}, {"inputSchema", tool.parameters()}};
    if (tool.options().result_schema) entry["outputSchema"] = *tool.options().result_schema;
    return entry;
}

} // namespace

bool supported_protocol_version(std::string_view version) noexcept {
    return std::find(protocol_versions.begin(), protocol_versions.end(), version) != protocol_versions.end();
}

bool server_session::wants_progress(const json::value& message) {
    const rpc::message_view m = rpc::classify(message);
    if (m.kind != rpc::message_kind::request || m.method != "tools/call") return false;
    const json::value* meta = params_of(m).if_contains("_meta");
    return meta && meta->is_object() && meta->get_object().contains("progressToken");
}

void server_session::cancel_all() {
    for (auto& [id, stop] : calls_) stop->emit(asio::cancellation_type::terminal);
}

asio::awaitable<json::value> server_session::call_tool(const json::value& id, const json::object& params, notify_function notify) {
    const std::string name = json_detail::string_member(params, "name");
    const auto& tools = catalog_->tools;
    const auto tool = std::find_if(tools.begin(), tools.end(), [&](const function_tool& t) { return t.name() == name; });
    if (tool == tools.end()) throw rpc_failure{invalid_params, "no tool named \"" + json_detail::valid_utf8(name) + "\""};
    json::object arguments;
    if (const json::value* a = params.if_contains("arguments")) {
        if (!a->is_object() && !a->is_null()) throw rpc_failure{invalid_params, "params.arguments must be an object"};
        if (a->is_object()) arguments = a->get_object();
    }
    const function_call_content call(json::serialize(id), name, arguments);
    const std::string arguments_text = json::serialize(arguments);
    tool_invocation invocation{.call = call, .arguments = arguments_text};
    if (const json::value* meta = params.if_contains("_meta"); meta && meta->is_object()) {
        if (const json::value* token = meta->get_object().if_contains("progressToken"); token && notify) {
            invocation.report_progress = [notify, token = *token](double value, std::optional<double> total, std::string message) {
                json::object p{{"progressToken", token}, {"progress", value}};
                if (total) p["total"] = *total;
                if (!message.empty()) p["message"] = json_detail::valid_utf8(message);
                notify(rpc::notification("notifications/progress", std::move(p)));
            };
        }
    }
    const std::string key = json::serialize(id);
    auto stop = std::make_shared<asio::cancellation_signal>();
    calls_[key] = stop;
    std::exception_ptr failure;
    json::value result;
    try {
        result = co_await asio::co_spawn(catalog_->executor, tool->invoke(invocation),
                                         asio::bind_cancellation_slot(stop->slot(), asio::use_awaitable));
    } catch (...) {
        failure = std::current_exception();
    }
    calls_.erase(key);
    if (failure) {
        try {
            std::rethrow_exception(failure);
        } catch (const boost::system::system_error& e) {
            if (e.code() == asio::error::operation_aborted) throw; // canceled: no answer
        } catch (...) {
        }
        const bool arguments_wrong = [&] {
            try {
                std::rethrow_exception(failure);
            } catch (const tool_arguments_error&) {
                return true;
            } catch (...) {
                return false;
            }
        }();
        const std::string why = arguments_wrong ? text_detail::failure_text(failure) : "the tool failed: " + text_detail::failure_text(failure);
        co_return json::object{{"content", json::array{{{"type", "text"}, {"text", json_detail::valid_utf8(why)}}}}, {"isError", true}};
    }
    const std::string text = result.is_string() ? std::string(result.get_string()) : json::serialize(result);
    json::object out{{"content", json::array{{{"type", "text"}, {"text", json_detail::valid_utf8(text)}}}}, {"isError", false}};
    if (tool->options().result_schema && result.is_object()) out["structuredContent"] = result;
    co_return out;
}

asio::awaitable<std::optional<std::string>> server_session::handle(const json::value& message, notify_function notify) {
    const rpc::checked_message checked = rpc::classify_received(message);
    const rpc::message_view& m = checked.view;
    if (m.kind == rpc::message_kind::notification) {
        if (m.method == "notifications/cancelled") {
            if (const json::value* id = params_of(m).if_contains("requestId")) {
                if (const auto it = calls_.find(json::serialize(*id)); it != calls_.end())
                    it->second->emit(asio::cancellation_type::terminal);
            }
        }
        co_return std::nullopt; // notifications/initialized and others need nothing
    }
    if (m.kind == rpc::message_kind::response) co_return std::nullopt; // forma asks the client nothing
    if (m.kind != rpc::message_kind::request) co_return rpc::error_reply(rpc::answer_id(message), invalid_request, checked.problem);
    const json::value id = *m.id;
    const std::string method(m.method);
    const json::object& params = params_of(m);
    try {
        if (method == "initialize") {
            const std::string asked = json_detail::string_member(params, "protocolVersion");
            protocol_version_ = supported_protocol_version(asked) ? asked : std::string(protocol_versions.front());
            json::object result{{"protocolVersion", protocol_version_},
                                {"capabilities", {{"tools", {{"listChanged", false}}}}},
                                {"serverInfo", {{"name", catalog_->options.name}, {"version", catalog_->options.version}}}};
            if (!catalog_->options.instructions.empty()) result["instructions"] = catalog_->options.instructions;
            co_return rpc::result_reply(id, std::move(result));
        }
        if (method == "ping") co_return rpc::result_reply(id, json::object());
        if (!initialized()) throw rpc_failure{invalid_request, "the session is not initialized: send initialize first"};
        if (method == "tools/list") {
            std::size_t from = 0;
            if (const std::string cursor = json_detail::string_member(params, "cursor"); !cursor.empty()) {
                const auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), from);
                if (ec != std::errc() || end != cursor.data() + cursor.size() || from > catalog_->tools.size())
                    throw rpc_failure{invalid_params, "the cursor \"" + json_detail::valid_utf8(cursor) + "\" is not one this server gave"};
            }
            const std::size_t page = std::max<std::size_t>(catalog_->options.page_size, 1);
            const std::size_t to = std::min(from + page, catalog_->tools.size());
            json::array tools;
            for (std::size_t i = from; i < to; ++i) tools.push_back(tool_entry(catalog_->tools[i]));
            json::object result{{"tools", std::move(tools)}};
            if (to < catalog_->tools.size()) result["nextCursor"] = std::to_string(to);
            co_return rpc::result_reply(id, std::move(result));
        }
        if (method == "tools/call") {
            json::value result;
            try {
                result = co_await call_tool(id, params, notify);
            } catch (const boost::system::system_error& e) {
                if (e.code() == asio::error::operation_aborted) co_return std::nullopt;
                throw;
            }
            co_return rpc::result_reply(id, std::move(result));
        }
        co_return rpc::error_reply(id, rpc::method_not_found, "the method " + method + " is not one this MCP server serves");
    } catch (const rpc_failure& f) {
        co_return rpc::error_reply(id, f.code, f.message);
    }
}

} // namespace forma::mcp::detail
