#pragma once
// The request parser of http_server: Beast's HTTP/1.1 grammar, limits and framing (basic_parser),
// with the head written straight into a server_request and the body into a string. No fields
// container is kept beside it: a field costs its two strings, not a node of Beast's and a copy.
// Private to lib/net.

#include <forma/net/server_request.hpp>

#include "../text/ascii.hpp"

#include <boost/beast/http/basic_parser.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace forma::net::detail {

/// The origin form of a request target: an absolute-form one ("http://host:80/v1/models?x")
/// served as its path and query ("/v1/models?x"), as RFC 9112 asks a server to.
inline std::string origin_form(std::string_view target) {
    const std::size_t scheme_end = target.find("://");
    if (scheme_end == std::string_view::npos || target.starts_with("/")) return std::string(target);
    const std::string_view scheme = target.substr(0, scheme_end);
    if (!text_detail::iequals(scheme, "http") && !text_detail::iequals(scheme, "https")) return std::string(target);
    const std::string_view rest = target.substr(scheme_end + 3);
    const std::size_t path = rest.find_first_of("/?");
    if (path == std::string_view::npos) return "/";
    std::string out;
    if (rest[path] == '?') out += '/'; // not `"/" + std::string(...)`: g++ 12 -O3 warns falsely on it
    out += rest.substr(path);
    return out;
}

/// Sets the request's target (in origin form), path and query from the target as sent.
inline void set_target(server_request& request, std::string_view sent) {
    request.target = origin_form(sent);
    const std::size_t question = request.target.find('?');
    request.path = request.target.substr(0, question);
    if (question != std::string::npos) request.query = request.target.substr(question + 1);
}

class server_request_parser final : public boost::beast::http::basic_parser<true> {
public:
    /// The head read so far: method and target once the request line is read, each field as it comes.
    server_request& head() noexcept { return head_; }
    const server_request& head() const noexcept { return head_; }
    /// The body read so far.
    std::string& body() noexcept { return body_; }

private:
    using string_view = boost::beast::string_view;
    using error_code = boost::system::error_code;
    static std::string_view view(string_view s) noexcept { return {s.data(), s.size()}; }

    void on_request_impl(boost::beast::http::verb, string_view method, string_view target, int, error_code&) override {
        head_.method = view(method);
        set_target(head_, view(target));
        head_.headers.reserve(8); // one allocation for a usual head
    }
    void on_response_impl(int, string_view, int, error_code&) override {} // a request parser reads no status line
    void on_field_impl(boost::beast::http::field, string_view name, string_view value, error_code&) override {
        head_.headers.emplace_back(view(name), view(value));
    }
    void on_header_impl(error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>& content_length, error_code&) override {
        // The server has refused a length above its limit (413) before the body is read; a
        // large body still grows as it comes rather than being reserved whole.
        constexpr std::uint64_t reserved_at_most = std::uint64_t{1} << 20;
        if (content_length) body_.reserve(static_cast<std::size_t>(std::min(*content_length, reserved_at_most)));
    }
    std::size_t on_body_impl(string_view piece, error_code&) override {
        body_.append(piece.data(), piece.size());
        return piece.size();
    }
    void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, string_view piece, error_code& ec) override { return on_body_impl(piece, ec); }
    void on_finish_impl(error_code&) override {}

    server_request head_;
    std::string body_;
};

} // namespace forma::net::detail
