#include "server_writer.hpp"

#include "../text/ascii.hpp"

#include <boost/beast/http/status.hpp>

#include <charconv>

namespace forma::net::detail {

namespace {

// The server's own fields, which a reply's fields may not set.
bool is_framing(std::string_view name) {
    return text_detail::iequals(name, "Content-Length") || text_detail::iequals(name, "Transfer-Encoding") ||
           text_detail::iequals(name, "Connection");
}

// `text` with every control character (CR and LF among them) a space.
void append_field_text(std::string& out, std::string_view text) {
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        out += byte < 0x20 || byte == 0x7f ? ' ' : c;
    }
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
    append_field_text(out, name);
    out += ": ";
    append_field_text(out, value);
    out += "\r\n";
}

} // namespace

std::string response_head(const http_reply& reply, bool keep_alive, std::optional<std::size_t> body_size) {
    std::string out = "HTTP/1.1 " + std::to_string(reply.status) + ' ';
    out += boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(reply.status));
    out += "\r\n";
    if (!reply.content_type.empty()) append_field(out, "Content-Type", reply.content_type);
    for (const auto& [name, value] : reply.headers)
        if (!is_framing(name)) append_field(out, name, value);
    if (!keep_alive) out += "Connection: close\r\n";
    const bool bodiless = reply.status < 200 || reply.status == 204 || reply.status == 304;
    if (!body_size) {
        out += "Transfer-Encoding: chunked\r\n";
    } else if (!bodiless) {
        out += "Content-Length: " + std::to_string(*body_size) + "\r\n";
    }
    out += "\r\n";
    return out;
}

std::string chunk_size_line(std::size_t size) {
    char digits[2 * sizeof(std::size_t)];
    const auto end = std::to_chars(digits, digits + sizeof(digits), size, 16).ptr;
    std::string out(digits, end);
    out += "\r\n";
    return out;
}

} // namespace forma::net::detail
