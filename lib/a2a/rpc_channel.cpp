#include "rpc_channel.hpp"

#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>

#include "../json/body_excerpt.hpp"
#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../text/ascii.hpp"
#include "../net/media_type.hpp"
#include "wire_v1.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace forma::a2a::detail {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using net::detail::exchange_limits;

constexpr std::size_t error_excerpt = 300;
constexpr std::string_view card_path = "/.well-known/agent-card.json";

struct endpoint_choice {
    std::string url;
    protocol_version version = protocol_version::v0_3;
};

// The JSON-RPC endpoint to speak to: a 1.0 interface of supportedInterfaces unless held to 0.3;
// else 0.3's top-level "url", or an interface of 0.3 or of no version. None: an empty url.
endpoint_choice endpoint_of(const json::object& card, std::optional<protocol_version> speak) {
    std::vector<std::pair<std::string, std::optional<protocol_version>>> interfaces;
    if (const json::value* listed = card.if_contains("supportedInterfaces"); listed && listed->is_array()) {
        for (const json::value& entry : listed->get_array()) {
            const json::object* o = entry.if_object();
            if (!o || text_detail::to_lower(json_detail::string_member(*o, "protocolBinding")) != "jsonrpc") continue;
            const std::string version = json_detail::string_member(*o, "protocolVersion");
            interfaces.emplace_back(json_detail::string_member(*o, "url"),
                                    version.empty() ? std::optional(protocol_version::v0_3) : v1::version_named(version));
        }
    }
    const auto listed = [&](protocol_version v) -> std::string {
        for (const auto& [url, version] : interfaces)
            if (version == v && !url.empty()) return url;
        return {};
    };
    if (speak != protocol_version::v0_3)
        if (std::string url = listed(protocol_version::v1_0); !url.empty()) return {url, protocol_version::v1_0};
    if (speak == protocol_version::v1_0) return {};
    if (std::string url = json_detail::string_member(card, "url"); !url.empty()) return {url, protocol_version::v0_3};
    return {listed(protocol_version::v0_3), protocol_version::v0_3};
}

std::string excerpt(std::string_view text) { return json_detail::body_excerpt(text, error_excerpt); }

} // namespace

rpc_channel::rpc_channel(asio::any_io_executor executor, const agent_options& options)
    : rpc_channel(executor, options, net::parse_base_url(options.base_url)) {}

rpc_channel::rpc_channel(asio::any_io_executor executor, const agent_options& options, net::base_url base)
    : executor_(executor), url_(json_detail::valid_utf8(options.base_url)), max_message_size_(options.max_message_size),
      timeouts_(options.timeouts), headers_(options.headers.begin(), options.headers.end()), speak_(options.speak),
      trust_(options.trust),
      tls_(base.tls ? net::detail::make_tls_client_context(trust_) : nullptr), card_pool_(executor, std::move(base), tls_) {
    secrets_.add_named(options.headers);
}

a2a_error rpc_channel::error(const std::string& what, std::optional<std::int64_t> code) const {
    return a2a_error("A2A agent at " + url_ + ": " + what, url_, code);
}

exchange_limits rpc_channel::limits(std::optional<std::chrono::steady_clock::time_point> deadline) const {
    net::timeouts t = timeouts_;
    t.total = std::chrono::milliseconds::zero();
    return {t, deadline};
}

asio::awaitable<std::string> rpc_channel::read_json_body(net::detail::connection_pool::opened& answer,
                                                         const exchange_limits& limits) {
    try {
        std::string body = co_await answer.connection->read_body(max_message_size_, limits);
        co_return body;
    } catch (const transport_error& e) {
        throw error(std::string("its answer could not be read: ") + e.what());
    }
}

asio::awaitable<agent_card> rpc_channel::read_card() {
    const std::string target = card_pool_.server().path + std::string(card_path);
    const std::string where = url_ + std::string(card_path);
    // As a 1.0 client asks, so that an agent serving both versions shows its 1.0 card.
    net::detail::header_list asking = headers_;
    if (speak_ != protocol_version::v0_3) asking.emplace_back(v1::version_header, "1.0");
    const net::detail::http_request request{.method = "GET", .target = target, .headers = &asking};
    net::detail::connection_pool::opened answer;
    try {
        answer = co_await card_pool_.open(request, limits());
    } catch (const transport_error& e) {
        throw error(std::string("its agent card could not be read: ") + e.what());
    }
    const std::string body = co_await read_json_body(answer, limits());
    card_pool_.give_back(std::move(answer.connection));
    if (answer.head.status / 100 != 2) {
        throw error("has no agent card at " + where + " (HTTP " + std::to_string(answer.head.status) + ")");
    }
    boost::system::error_code ec;
    json::value parsed = json::parse(body, ec);
    if (ec || !parsed.is_object()) throw error("its agent card at " + where + " is not a JSON object: \"" + excerpt(body) + "\"");
    json::object& raw = parsed.get_object();
    agent_card card = card_of(raw, where);
    const endpoint_choice chosen = endpoint_of(raw, speak_);
    if (chosen.url.empty() && speak_ == protocol_version::v1_0)
        throw error("its agent card at " + where + " lists no A2A 1.0 JSON-RPC interface (agent_options::speak asks for 1.0)");
    if (chosen.url.empty())
        throw error("its agent card at " + where + " names no JSON-RPC endpoint (\"url\" or a JSONRPC entry of \"supportedInterfaces\")");
    card.url = chosen.url;
    card.spoken_version = chosen.version;
    version_ = chosen.version;
    net::base_url endpoint;
    try {
        endpoint = net::parse_base_url(card.url);
    } catch (const forma::error& e) {
        throw error("its agent card names an endpoint forma cannot use: " + std::string(e.what()));
    }
    endpoint_target_ = endpoint.path.empty() ? "/" : endpoint.path;
    if (endpoint.tls && !tls_) tls_ = net::detail::make_tls_client_context(trust_);
    std::shared_ptr<ssl_ctx_st> endpoint_tls = endpoint.tls ? tls_ : nullptr;
    endpoint_pool_.emplace(executor_, std::move(endpoint), std::move(endpoint_tls));
    endpoint_headers_ = headers_;
    endpoint_headers_.emplace_back(v1::version_header, std::string(to_string(version_)));
    card.raw = std::move(raw);
    co_return card;
}

agent_card rpc_channel::card_of(const json::object& raw, const std::string& where) const {
    agent_card card;
    card.name = json_detail::string_member(raw, "name");
    if (card.name.empty()) throw error("its agent card at " + where + " has no \"name\" string");
    card.description = json_detail::string_member(raw, "description");
    card.version = json_detail::string_member(raw, "version");
    if (const json::value* caps = raw.if_contains("capabilities"); caps && caps->is_object()) {
        const json::value* streaming = caps->get_object().if_contains("streaming");
        card.streaming = streaming && streaming->is_bool() && streaming->get_bool();
    }
    if (const json::value* skills = raw.if_contains("skills"); skills && skills->is_array()) {
        for (const json::value& s : skills->get_array()) {
            if (!s.is_object()) continue;
            card.skills.push_back({json_detail::string_member(s.get_object(), "id"), json_detail::string_member(s.get_object(), "name"),
                                   json_detail::string_member(s.get_object(), "description")});
        }
    }
    card.raw = raw;
    return card;
}

json::value rpc_channel::result_of(json::value response, std::int64_t id) const {
    json::object* message = response.if_object();
    if (!message) throw error("answered with something that is not a JSON-RPC object");
    json_detail::json_rpc::response_outcome answer = json_detail::json_rpc::outcome(*message);
    if (answer.error) throw error(answer.error->text, answer.error->code);
    const json_detail::json_rpc::message_view view = json_detail::json_rpc::classify(response);
    if (view.response_id != id) {
        const json::value* answered = message->if_contains("id");
        throw error("answered request " + std::to_string(id) + " with another id (" +
                    (answered ? json::serialize(*answered) : std::string("none")) + ")");
    }
    if (!answer.result) throw error("answered request " + std::to_string(id) + " with neither a result nor an error");
    if (version_ == protocol_version::v1_0) return v1::legacy_result(*answer.result);
    return std::move(*answer.result);
}

asio::awaitable<net::detail::connection_pool::opened> rpc_channel::post(std::string_view method, json::object params,
                                                                        std::string_view accept, std::int64_t id,
                                                                        const exchange_limits& limits) {
    if (!endpoint_pool_) throw error("its agent card was not read (connect() first)");
    if (version_ == protocol_version::v1_0) {
        method = v1::method_of(method).value_or(method);
        params = v1::params(params);
    }
    const std::string body = json_detail::json_rpc::request(id, method, std::move(params));
    const net::detail::http_request request{
        .method = "POST", .target = endpoint_target_, .accept = accept, .headers = &endpoint_headers_, .body = body};
    net::detail::connection_pool::opened answer;
    try {
        answer = co_await endpoint_pool_->open(request, limits);
    } catch (const transport_error& e) {
        throw error(std::string(method) + " failed: " + e.what());
    }
    if (answer.head.status / 100 != 2) {
        std::string text;
        try {
            text = co_await answer.connection->read_body(error_excerpt * 4, limits);
        } catch (const transport_error&) {
            // The status says enough.
        }
        throw error("answered " + std::string(method) + " with HTTP " + std::to_string(answer.head.status) +
                    (text.empty() ? std::string() : ": " + excerpt(text)));
    }
    co_return answer;
}

asio::awaitable<json::value> rpc_channel::call(std::string_view method, json::object params, const exchange_limits& limits) {
    const std::int64_t id = next_id_++;
    auto answer = co_await post(method, std::move(params), "application/json", id, limits);
    const std::string body = co_await read_json_body(answer, limits);
    endpoint_pool_->give_back(std::move(answer.connection));
    boost::system::error_code ec;
    json::value response = json::parse(body, ec);
    if (ec) throw error("answered " + std::string(method) + " with a body that is not JSON: \"" + excerpt(body) + "\"");
    co_return result_of(std::move(response), id);
}

asio::awaitable<std::unique_ptr<rpc_channel::result_stream>> rpc_channel::stream(std::string_view method, json::object params,
                                                                                 const exchange_limits& limits) {
    const std::int64_t id = next_id_++;
    auto answer = co_await post(method, std::move(params), "text/event-stream", id, limits);
    auto events = std::make_unique<result_stream>(*this, id, limits);
    if (net::detail::has_media_type(answer.head.header("Content-Type"), net::detail::json_media_type)) {
        // No stream: one JSON answer (an error, or a server that does not stream).
        std::string body = co_await read_json_body(answer, limits);
        events->preload(std::move(body));
        endpoint_pool_->give_back(std::move(answer.connection));
    } else {
        events->attach(std::move(answer.connection));
    }
    co_return events;
}

rpc_channel::result_stream::result_stream(rpc_channel& channel, std::int64_t id, exchange_limits limits)
    : channel_(channel), id_(id), limits_(limits) {}

rpc_channel::result_stream::~result_stream() = default;

void rpc_channel::result_stream::attach(std::unique_ptr<net::detail::http_connection> connection) {
    connection_ = std::move(connection);
    events_.emplace(*connection_, channel_.max_message_size_, limits_);
}

asio::awaitable<std::optional<json::value>> rpc_channel::result_stream::next() {
    std::string text;
    if (preloaded_) {
        text = std::move(*preloaded_);
        preloaded_.reset();
    }
    while (text.empty()) {
        if (!connection_) co_return std::nullopt;
        std::optional<net::sse_event> event;
        try {
            event = co_await events_->next();
        } catch (const transport_error& e) {
            connection_.reset();
            throw channel_.error(std::string("its stream broke: ") + e.what());
        } catch (const stream_error& e) {
            connection_.reset();
            throw channel_.error(std::string("its stream broke: ") + e.what());
        }
        if (!event) {
            channel_.endpoint_pool_->give_back(std::move(connection_));
            co_return std::nullopt;
        }
        text = std::move(event->data);
    }
    boost::system::error_code ec;
    raw_ = json::parse(text, ec);
    if (ec) throw channel_.error("sent an event that is not JSON: \"" + excerpt(text) + "\"");
    co_return channel_.result_of(raw_, id_);
}

} // namespace forma::a2a::detail
