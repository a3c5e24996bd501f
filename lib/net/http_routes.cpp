// forma::net::http_routes: which handler answers a request, and the errors found before one does.
#include <forma/net/http_routes.hpp>

#include "../text/ascii.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <exception>

namespace forma::net {

namespace json = boost::json;

namespace {

// `message` as it goes into JSON: Boost.JSON's parser checks the UTF-8 (serialize copies bytes
// as they are); a message that is not UTF-8 keeps its ASCII and shows '?' for the other bytes.
std::string fit_for_json(std::string_view message) {
    boost::system::error_code ec;
    (void)json::parse(json::serialize(json::string(message)), ec);
    if (!ec) return std::string(message);
    std::string ascii(message);
    for (char& c : ascii)
        if (static_cast<unsigned char>(c) >= 0x80) c = '?';
    return ascii;
}

} // namespace

http_reply plain_json_error(unsigned status, std::string_view message) {
    const json::object body{{"error", {{"message", fit_for_json(message)}, {"status", status}}}};
    return {.status = status, .content_type = "application/json", .body = json::serialize(body)};
}

http_routes::http_routes() : shape_(std::make_shared<const error_shape>(&plain_json_error)) {}

http_routes& http_routes::add(std::string method, std::string path, route_handler handler) {
    const bool prefix = path.size() >= 2 && path.ends_with("/*");
    if (prefix) path.resize(path.size() - 1); // keep the slash: "/v1/responses/" matches its children
    routes_.push_back({text_detail::to_upper(std::move(method)), std::move(path), prefix,
                       std::make_shared<const route_handler>(std::move(handler)), shape_});
    return *this;
}

http_routes& http_routes::add_all(const http_routes& other) {
    routes_.insert(routes_.end(), other.routes_.begin(), other.routes_.end());
    return *this;
}

http_routes& http_routes::shape_errors(error_shape shape) {
    shape_ = std::make_shared<const error_shape>(std::move(shape));
    return *this;
}

http_routes::match http_routes::find(std::string_view method, std::string_view path) const {
    match found{.shape = shape_.get()};
    bool path_seen = false;
    for (const route& r : routes_) {
        const bool path_matches = r.prefix ? path.starts_with(r.path) : path == r.path;
        if (!path_matches) continue;
        if (!path_seen) found.shape = r.shape.get(); // the protocol that owns the path words its errors
        path_seen = true;
        if (r.method == "*" || r.method == method || (method == "HEAD" && r.method == "GET")) {
            found.handler = r.handler.get();
            found.shape = r.shape.get();
            found.status = 200;
            return found;
        }
        if (found.allow.find(r.method) == std::string::npos)
            found.allow += (found.allow.empty() ? "" : ", ") + r.method;
    }
    found.status = path_seen ? 405 : 404;
    return found;
}

boost::asio::awaitable<void> http_routes::handle(server_request& request, response_writer& writer) const {
    const match m = find(request.method, request.path);
    if (!m.handler) {
        http_reply reply = m.status == 405
                               ? (*m.shape)(405, "the method " + request.method + " is not allowed on " + request.path +
                                                     " (allowed: " + m.allow + ")")
                               : (*m.shape)(404, "nothing is served at " + request.path);
        if (m.status == 405) reply.headers.emplace_back("Allow", m.allow);
        co_await writer.send(std::move(reply));
        co_return;
    }
    std::exception_ptr failure;
    try {
        co_await (*m.handler)(request, writer);
    } catch (...) {
        failure = std::current_exception();
    }
    if (!failure) {
        if (!writer.started()) co_await writer.send((*m.shape)(500, "the route for " + request.path + " gave no answer"));
        co_return;
    }
    if (writer.server_stopped() && !writer.started()) {
        // The server stopped a handler before it answered (a stream it began is ended by the server).
        co_await boost::asio::this_coro::reset_cancellation_state();
        http_reply reply = (*m.shape)(503, "the server is shutting down; try again later");
        reply.headers.emplace_back("Retry-After", "1");
        try {
            co_await writer.send(std::move(reply));
        } catch (const boost::system::system_error&) {
        }
        co_return;
    }
    if (writer.started()) std::rethrow_exception(failure);
    std::string why = "the server failed to answer";
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        why += std::string(": ") + e.what();
    } catch (...) {
    }
    co_await writer.send((*m.shape)(500, why));
}

std::string format_sse_event(std::string_view data, std::string_view event, std::string_view id) {
    std::string out;
    out.reserve(data.size() + event.size() + id.size() + 24);
    if (!event.empty()) out.append("event: ").append(event).append("\n");
    if (!id.empty()) out.append("id: ").append(id).append("\n");
    for (;;) {
        const std::size_t end = data.find('\n');
        out.append("data: ").append(data.substr(0, end)).append("\n");
        if (end == std::string_view::npos) break;
        data.remove_prefix(end + 1);
    }
    out += '\n';
    return out; // the string itself, moved: `return out.append(...)` copied it
}

const std::string* server_request::header(std::string_view name) const noexcept {
    for (const auto& [key, value] : headers)
        if (text_detail::iequals(key, name)) return &value;
    return nullptr;
}

namespace {

int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decoded(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+') {
            out += ' ';
        } else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 &&
                   hex_value(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

} // namespace

std::string server_request::query_parameter(std::string_view name) const {
    std::string_view rest = query;
    while (!rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        const std::size_t eq = pair.find('=');
        if (percent_decoded(pair.substr(0, eq)) == name)
            return eq == std::string_view::npos ? std::string() : percent_decoded(pair.substr(eq + 1));
        if (amp == std::string_view::npos) break;
        rest.remove_prefix(amp + 1);
    }
    return {};
}

} // namespace forma::net
