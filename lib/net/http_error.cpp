#include <forma/net/http_error.hpp>
#include <forma/registered_secret.hpp>

#include <string_view>

namespace forma {
namespace {

// Used when the provider sent no message of its own.
std::string_view reason_phrase(int status) noexcept {
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

std::string describe(int status, const std::string& type, const std::string& message,
                     const std::string& code) {
    std::string out;
    if (status == 0) {
        out = "error in the response stream";
    } else {
        out = "HTTP ";
        out += std::to_string(status);
    }
    const std::string& kind = code.empty() ? type : code;
    if (!kind.empty()) {
        out += " (";
        out += kind;
        out += ')';
    }
    std::string_view text = message;
    if (text.empty()) text = reason_phrase(status);
    if (!text.empty()) {
        out += ": ";
        out += text;
    }
    return out;
}

} // namespace

http_error::http_error(int status, std::string type, std::string message, std::string code,
                       std::string param)
    : error(describe(status, type, message, code)), status_(status), type_(redact_secrets(type)),
      message_(redact_secrets(message)), code_(redact_secrets(code)), param_(redact_secrets(param)) {}

http_error::~http_error() = default;

} // namespace forma
