#include "server_session.hpp"

#include <forma/chat/tool_arguments_error.hpp>
#include <forma/error.hpp>
#include <forma/mcp/mcp_error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "../text/failure_text.hpp"
#include "sampling_wire.hpp"
#include "served_content.hpp"
#include "session_call.hpp"

#include <boost/asio/as_tuple.hpp>
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

constexpr std::array protocol_versions{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
using rpc::invalid_params;
using rpc::invalid_request;
constexpr std::size_t max_subscriptions = 1024;    // one session's, so that a client cannot grow them without end
constexpr std::size_t max_running_requests = 256; // one session's calls, reads and prompts at once

const json::object& params_of(const rpc::message_view& m) {
    static const json::object none;
    return m.params && m.params->is_object() ? m.params->get_object() : none;
}

json::object tool_entry(const function_tool& tool) {
    json::object entry{{"name", tool.name()}, {"description", tool.description()}, {"inputSchema", tool.parameters()}};
    if (tool.options().result_schema) entry["outputSchema"] = *tool.options().result_schema;
    return entry;
}

json::object tool_entry(const server_tool& tool) {
    json::object entry{{"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}};
    if (!tool.title.empty()) entry["title"] = tool.title;
    if (tool.output_schema) entry["outputSchema"] = *tool.output_schema;
    return entry;
}

json::object text_result(std::string_view text, bool is_error) {
    return {{"content", json::array{{{"type", "text"}, {"text", json_detail::valid_utf8(text)}}}}, {"isError", is_error}};
}

json::object tool_result_json(const tool_result& result) {
    json::array content;
    for (const content_block& block : result.content) content.push_back(content_block_json(block));
    json::object out{{"content", std::move(content)}, {"isError", result.is_error}};
    if (result.structured_content) out["structuredContent"] = *result.structured_content;
    return out;
}

// What the model reads of a failed call: the arguments' fault as it is, anything else as the tool's.
std::string failure_for_model(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const tool_arguments_error&) {
        return text_detail::failure_text(failure);
    } catch (...) {
        return "the tool failed: " + text_detail::failure_text(failure);
    }
}

using progress_function = decltype(tool_invocation::report_progress);

asio::awaitable<json::object> function_tool_call(function_tool tool, function_call_content call, std::string arguments_text,
                                                 progress_function report_progress) {
    const tool_invocation invocation{.call = call, .arguments = arguments_text, .report_progress = std::move(report_progress)};
    const json::value result = co_await tool.invoke(invocation);
    const std::string text = result.is_string() ? std::string(result.get_string()) : json::serialize(result);
    json::object out = text_result(text, false);
    if (tool.options().result_schema && result.is_object()) out["structuredContent"] = result;
    co_return out;
}

// The tool is a copy: the catalog may grow while it runs.
asio::awaitable<json::object> server_tool_call(server_tool tool, std::unique_ptr<session_call> call) {
    co_return tool_result_json(co_await tool.invoke(*call));
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

void server_session::resource_updated(const std::string& uri) {
    if (unsolicited_ && subscriptions_.contains(uri)) unsolicited_(rpc::notification("notifications/resources/updated", {{"uri", uri}}));
}

std::string server_session::describe_client() const {
    return "the MCP client" + (client_name_.empty() ? std::string() : " \"" + client_name_ + "\"");
}

asio::awaitable<json::object> server_session::ask(std::string_view method, json::object params, const notify_function& send) {
    if (!send) throw mcp_error("no channel to " + describe_client() + " is open for " + std::string(method), describe_client());
    const std::int64_t id = next_ask_id_++;
    auto waiting = std::make_shared<asked>(catalog_->executor);
    asked_[id] = waiting;
    send(rpc::request(id, method, std::move(params)));
    waiting->answered.expires_after(catalog_->options.client_request_timeout);
    const auto [ec] = co_await waiting->answered.async_wait(asio::as_tuple(asio::use_awaitable));
    asked_.erase(id);
    if (waiting->result) co_return std::move(*waiting->result);
    if (waiting->refusal) throw mcp_error(describe_client() + " refused " + std::string(method) + ": " + *waiting->refusal, describe_client());
    // Given up (the call was canceled, or out of time): the client may stop asking its model or user.
    const bool canceled = ec == asio::error::operation_aborted;
    send(rpc::notification("notifications/cancelled", {{"requestId", id}, {"reason", canceled ? "the call was canceled" : "not answered in time"}}));
    if (canceled) throw boost::system::system_error(ec);
    throw mcp_error(describe_client() + " did not answer " + std::string(method) + " in time", describe_client());
}

void server_session::take_answer(const json::object& response) {
    const json::value* id = response.if_contains("id");
    if (!id || !id->is_int64()) return;
    const auto it = asked_.find(id->get_int64());
    if (it == asked_.end()) return; // answered twice, or after its call ended
    if (const json::value* result = response.if_contains("result"); result && result->is_object()) {
        it->second->result = result->get_object();
    } else {
        const json::value* error = response.if_contains("error");
        const json::value* message = error && error->is_object() ? error->get_object().if_contains("message") : nullptr;
        it->second->refusal = message && message->is_string() ? json_detail::valid_utf8(message->get_string()) : std::string("an answer with no result");
    }
    it->second->answered.cancel();
}

asio::awaitable<json::object> server_session::cancelable(const json::value& id, asio::awaitable<json::object> work) {
    const std::string key = json::serialize(id);
    if (calls_.contains(key)) throw rpc_failure{invalid_request, "a request with the id " + json_detail::valid_utf8(key) + " is running already"};
    if (calls_.size() >= max_running_requests) {
        throw rpc_failure{rpc::internal_error, "a session runs " + std::to_string(max_running_requests) + " requests at once"};
    }
    auto stop = std::make_shared<asio::cancellation_signal>();
    calls_[key] = stop;
    // Whoever cancels this request (its HTTP client left, the server stops) cancels the work too.
    asio::cancellation_slot outer = (co_await asio::this_coro::cancellation_state).slot();
    if (outer.is_connected()) outer.assign([stop](asio::cancellation_type type) { stop->emit(type); });
    std::exception_ptr failure;
    json::object result;
    try {
        result = co_await asio::co_spawn(catalog_->executor, std::move(work), asio::bind_cancellation_slot(stop->slot(), asio::use_awaitable));
    } catch (...) {
        failure = std::current_exception();
    }
    if (outer.is_connected()) outer.clear();
    if (const auto it = calls_.find(key); it != calls_.end() && it->second == stop) calls_.erase(it);
    if (failure) std::rethrow_exception(failure);
    co_return result;
}

asio::awaitable<json::object> server_session::call_tool(const json::value& id, const json::object& params, notify_function notify) {
    const std::string name = json_detail::string_member(params, "name");
    json::object arguments;
    if (const json::value* a = params.if_contains("arguments")) {
        if (!a->is_object() && !a->is_null()) throw rpc_failure{invalid_params, "params.arguments must be an object"};
        if (a->is_object()) arguments = a->get_object();
    }
    std::optional<json::value> progress_token;
    if (const json::value* meta = params.if_contains("_meta"); meta && meta->is_object()) {
        if (const json::value* token = meta->get_object().if_contains("progressToken")) progress_token = *token;
    }
    const auto& functions = catalog_->tools;
    const auto& served = catalog_->server_tools;
    const auto function = std::find_if(functions.begin(), functions.end(), [&](const function_tool& t) { return t.name() == name; });
    const auto native = std::find_if(served.begin(), served.end(), [&](const server_tool& t) { return t.name == name; });
    asio::awaitable<json::object> work = [&]() -> asio::awaitable<json::object> {
        if (function != functions.end()) {
            progress_function progress;
            if (progress_token && notify) {
                progress = [notify, token = *progress_token](double value, std::optional<double> total, std::string message) {
                    json::object p{{"progressToken", token}, {"progress", value}};
                    if (total) p["total"] = *total;
                    if (!message.empty()) p["message"] = json_detail::valid_utf8(message);
                    notify(rpc::notification("notifications/progress", std::move(p)));
                };
            }
            return function_tool_call(*function, function_call_content(json::serialize(id), name, arguments), json::serialize(arguments),
                                      std::move(progress));
        }
        if (native != served.end()) {
            return server_tool_call(*native, std::make_unique<session_call>(*this, std::move(arguments), std::move(progress_token), notify));
        }
        throw rpc_failure{invalid_params, "no tool named \"" + json_detail::valid_utf8(name) + "\""};
    }();
    try {
        co_return co_await cancelable(id, std::move(work));
    } catch (...) {
        const std::exception_ptr failure = std::current_exception();
        if (text_detail::is_cancellation(failure)) throw; // canceled: no answer
        co_return text_result(failure_for_model(failure), true);
    }
}

json::object server_session::initialize(const json::object& params) {
    const std::string asked = json_detail::string_member(params, "protocolVersion");
    protocol_version_ = supported_protocol_version(asked) ? asked : std::string(protocol_versions.front());
    if (const json::value* capabilities = params.if_contains("capabilities"); capabilities && capabilities->is_object()) {
        client_capabilities_ = capabilities->get_object();
    }
    if (const json::value* info = params.if_contains("clientInfo"); info && info->is_object()) {
        client_name_ = json_detail::valid_utf8(json_detail::string_member(info->get_object(), "name"));
    }
    json::object capabilities{{"tools", {{"listChanged", false}}},
                              {"resources", {{"subscribe", true}, {"listChanged", false}}},
                              {"prompts", {{"listChanged", false}}},
                              {"logging", json::object()},
                              {"completions", json::object()}};
    json::object result{{"protocolVersion", protocol_version_},
                        {"capabilities", std::move(capabilities)},
                        {"serverInfo", {{"name", catalog_->options.name}, {"version", catalog_->options.version}}}};
    if (!catalog_->options.instructions.empty()) result["instructions"] = catalog_->options.instructions;
    return result;
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
    if (m.kind == rpc::message_kind::response) {
        take_answer(message.get_object());
        co_return std::nullopt;
    }
    if (m.kind != rpc::message_kind::request) co_return rpc::error_reply(rpc::answer_id(message), invalid_request, checked.problem);
    const json::value id = *m.id;
    const std::string method(m.method);
    const json::object& params = params_of(m);
    try {
        if (method == "initialize") co_return rpc::result_reply(id, initialize(params));
        if (method == "ping") co_return rpc::result_reply(id, json::object());
        if (!initialized()) throw rpc_failure{invalid_request, "the session is not initialized: send initialize first"};
        if (method == "tools/list") {
            const std::size_t count = catalog_->tools.size() + catalog_->server_tools.size();
            std::size_t from = 0;
            if (const std::string cursor = json_detail::string_member(params, "cursor"); !cursor.empty()) {
                const auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), from);
                if (ec != std::errc() || end != cursor.data() + cursor.size() || from > count)
                    throw rpc_failure{invalid_params, "the cursor \"" + json_detail::valid_utf8(cursor) + "\" is not one this server gave"};
            }
            const std::size_t page = std::max<std::size_t>(catalog_->options.page_size, 1);
            const std::size_t to = std::min(from + page, count);
            json::array tools;
            for (std::size_t i = from; i < to; ++i) {
                tools.push_back(i < catalog_->tools.size() ? tool_entry(catalog_->tools[i]) : tool_entry(catalog_->server_tools[i - catalog_->tools.size()]));
            }
            json::object result{{"tools", std::move(tools)}};
            if (to < count) result["nextCursor"] = std::to_string(to);
            co_return rpc::result_reply(id, std::move(result));
        }
        if (method == "tools/call") {
            json::object result;
            try {
                result = co_await call_tool(id, params, notify);
            } catch (const boost::system::system_error& e) {
                if (e.code() == asio::error::operation_aborted) co_return std::nullopt;
                throw;
            }
            co_return rpc::result_reply(id, std::move(result));
        }
        if (method == "resources/list") co_return rpc::result_reply(id, list_resources(*catalog_));
        if (method == "resources/templates/list") co_return rpc::result_reply(id, list_resource_templates(*catalog_));
        if (method == "resources/read") co_return rpc::result_reply(id, co_await cancelable(id, read_resource(*catalog_, params)));
        if (method == "resources/subscribe" || method == "resources/unsubscribe") {
            const std::string uri = json_detail::string_member(params, "uri");
            if (uri.empty()) throw rpc_failure{invalid_params, method + " needs params.uri"};
            if (method == "resources/subscribe") {
                if (!catalog_->serves(uri)) throw rpc_failure{resource_not_found, "no resource has the URI \"" + json_detail::valid_utf8(uri) + "\""};
                if (subscriptions_.size() >= max_subscriptions && !subscriptions_.contains(uri))
                    throw rpc_failure{invalid_params, "a session subscribes to " + std::to_string(max_subscriptions) + " resources at most"};
                subscriptions_.insert(uri);
            } else {
                subscriptions_.erase(uri);
            }
            co_return rpc::result_reply(id, json::object());
        }
        if (method == "prompts/list") co_return rpc::result_reply(id, list_prompts(*catalog_));
        if (method == "prompts/get") co_return rpc::result_reply(id, co_await cancelable(id, get_prompt(*catalog_, params)));
        if (method == "completion/complete") co_return rpc::result_reply(id, complete(*catalog_, params));
        if (method == "logging/setLevel") {
            const std::optional<log_level> level = log_level_named(json_detail::string_member(params, "level"));
            if (!level) throw rpc_failure{invalid_params, "params.level must be one of debug, info, notice, warning, error, critical, alert, emergency"};
            log_level_ = *level;
            co_return rpc::result_reply(id, json::object());
        }
        co_return rpc::error_reply(id, rpc::method_not_found, "the method " + json_detail::valid_utf8(method) + " is not one this MCP server serves");
    } catch (const rpc_failure& f) {
        co_return rpc::error_reply(id, f.code, f.message);
    } catch (const boost::system::system_error& e) {
        if (e.code() == asio::error::operation_aborted) co_return std::nullopt; // canceled: no answer
        co_return rpc::error_reply(id, rpc::internal_error, json_detail::valid_utf8(e.what()));
    } catch (const std::exception& e) {
        co_return rpc::error_reply(id, rpc::internal_error, json_detail::valid_utf8(e.what()));
    }
}

} // namespace forma::mcp::detail
