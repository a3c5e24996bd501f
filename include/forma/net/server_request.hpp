#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma::net {

/// One HTTP request a server received: its head, and its body once read.
struct server_request {
    /// "GET", "POST", ... as sent.
    std::string method;
    /// The request target in origin form: "/a2a?x=1" (an absolute-form target,
    /// "http://host/a2a?x=1", is served as its path and query).
    std::string target;
    /// The target's path ("/a2a") and query ("x=1"), split at the first '?'.
    std::string path;
    std::string query;
    /// The header fields in the order they came; names as sent.
    std::vector<std::pair<std::string, std::string>> headers;
    /// The body; empty while only the head has been read (an authentication hook sees that).
    std::string body;
    /// The peer's address, "127.0.0.1:51234"; empty where the server did not know it.
    std::string remote_address;
    /// The address the peer reached, this end of the connection: "127.0.0.1:8080",
    /// "[::1]:8080"; empty where the server did not know it.
    std::string local_address;
    /// Who the authentication hook let in (authentication::caller); empty without a hook, or
    /// for a caller it let in without a name. A server keeps a caller's tasks for that caller.
    std::string caller;
    /// Whether it came over TLS.
    bool secure = false;

    /// The first field named `name` (any ASCII case), or null.
    const std::string* header(std::string_view name) const noexcept;
    /// The value of the query parameter `name` ("" when absent), percent-decoded.
    std::string query_parameter(std::string_view name) const;
};

} // namespace forma::net
