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

/// Sets `out` to the origin form of a request target: an absolute-form one
/// ("http://host:80/v1/models?x") served as its path and query ("/v1/models?x"), as RFC 9112
/// asks a server to. `out` keeps its capacity.
inline void assign_origin_form(std::string& out, std::string_view target) {
    const std::size_t scheme_end = target.find("://");
    if (scheme_end == std::string_view::npos || target.starts_with("/")) return void(out.assign(target));
    const std::string_view scheme = target.substr(0, scheme_end);
    if (!text_detail::iequals(scheme, "http") && !text_detail::iequals(scheme, "https")) return void(out.assign(target));
    const std::string_view rest = target.substr(scheme_end + 3);
    const std::size_t path = rest.find_first_of("/?");
    if (path == std::string_view::npos) return void(out.assign("/"));
    out.clear();
    if (rest[path] == '?') out += '/';
    out += rest.substr(path);
}

/// Sets the request's target (in origin form), path and query from the target as sent.
inline void set_target(server_request& request, std::string_view sent) {
    assign_origin_form(request.target, sent);
    const std::string_view target = request.target;
    const std::size_t question = target.find('?');
    request.path.assign(target.substr(0, question));
    if (question != std::string_view::npos) request.query.assign(target.substr(question + 1));
    else request.query.clear();
}

/// Parses one request into a server_request that a connection keeps from one request to the
/// next: its strings and its fields' vector keep their capacity, so that a kept-alive client's
/// usual head costs no allocation. Constructing the parser clears what identifies the last request.
class server_request_parser final : public boost::beast::http::basic_parser<true> {
public:
    explicit server_request_parser(server_request& head) : head_(head) {
        head_.method.clear();
        head_.target.clear();
        head_.path.clear();
        head_.query.clear();
        head_.caller.clear();
        // A body kept for the next request is bounded: a large one goes with its request.
        if (head_.body.capacity() > kept_body_capacity) std::string().swap(head_.body);
        else head_.body.clear();
    }

    /// The head read so far: method and target once the request line is read, each field as it
    /// comes (the last request's fields past those read so far until the head is whole).
    server_request& head() noexcept { return head_; }
    const server_request& head() const noexcept { return head_; }

private:
    using string_view = boost::beast::string_view;
    using error_code = boost::system::error_code;
    static constexpr std::size_t kept_body_capacity = 4096;
    static std::string_view view(string_view s) noexcept { return {s.data(), s.size()}; }
    // A kept string given new text: an append into its room, cheaper than assign's replace.
    static void refill(std::string& kept, string_view text) {
        kept.clear();
        kept.append(text.data(), text.size());
    }

    void on_request_impl(boost::beast::http::verb, string_view method, string_view target, int, error_code&) override {
        head_.method.assign(view(method));
        set_target(head_, view(target));
        head_.headers.reserve(8); // one allocation for a usual head, on a connection's first request
    }
    void on_response_impl(int, string_view, int, error_code&) override {} // a request parser reads no status line
    void on_field_impl(boost::beast::http::field, string_view name, string_view value, error_code&) override {
        if (fields_ < head_.headers.size()) {
            auto& [kept_name, kept_value] = head_.headers[fields_];
            refill(kept_name, name);
            refill(kept_value, value);
        } else {
            head_.headers.emplace_back(view(name), view(value));
        }
        ++fields_;
    }
    void on_header_impl(error_code&) override { head_.headers.resize(fields_); }
    void on_body_init_impl(const boost::optional<std::uint64_t>& content_length, error_code&) override {
        // The server has refused a length above its limit (413) before the body is read; a
        // large body still grows as it comes rather than being reserved whole.
        constexpr std::uint64_t reserved_at_most = std::uint64_t{1} << 20;
        if (content_length) head_.body.reserve(static_cast<std::size_t>(std::min(*content_length, reserved_at_most)));
    }
    std::size_t on_body_impl(string_view piece, error_code&) override {
        head_.body.append(piece.data(), piece.size());
        return piece.size();
    }
    void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, string_view piece, error_code& ec) override { return on_body_impl(piece, ec); }
    void on_finish_impl(error_code&) override {}

    server_request& head_;
    std::size_t fields_ = 0;
};

} // namespace forma::net::detail
