#include "server_writer.hpp"

#include "../text/ascii.hpp"
#include "../text/decimal_digits.hpp"

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
    const std::size_t start = out.size();
    out.append(text);
    for (auto it = out.begin() + static_cast<std::ptrdiff_t>(start); it != out.end(); ++it) {
        const auto byte = static_cast<unsigned char>(*it);
        if (byte < 0x20 || byte == 0x7f) *it = ' ';
    }
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
    append_field_text(out, name);
    out.append(": ");
    append_field_text(out, value);
    out.append("\r\n");
}

} // namespace

std::string response_head(const http_reply& reply, bool keep_alive, std::optional<std::size_t> body_size) {
    const std::string_view reason = boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(reply.status));
    // One allocation: the status line's and the server's own fields' most (under 128 bytes), and the reply's fields.
    std::size_t size = 128 + reason.size() + reply.content_type.size();
    for (const auto& [name, value] : reply.headers) size += name.size() + value.size() + 4;
    std::string out;
    out.reserve(size);
    out.append("HTTP/1.1 ");
    text_detail::append_decimal(out, reply.status);
    out.append(" ").append(reason).append("\r\n");
    if (!reply.content_type.empty()) append_field(out, "Content-Type", reply.content_type);
    for (const auto& [name, value] : reply.headers)
        if (!is_framing(name)) append_field(out, name, value);
    if (!keep_alive) out.append("Connection: close\r\n");
    const bool bodiless = reply.status < 200 || reply.status == 204 || reply.status == 304;
    if (!body_size) {
        out.append("Transfer-Encoding: chunked\r\n");
    } else if (!bodiless) {
        out.append("Content-Length: ");
        text_detail::append_decimal(out, *body_size);
        out.append("\r\n");
    }
    out.append("\r\n");
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
