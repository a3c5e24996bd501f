#pragma once

#include <forma/net/http_reply.hpp>
#include <forma/net/server_request.hpp>

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma::net {

/// Answers one request. `request.body` is read; the handler answers through `writer`. `request`
/// is the handler's until its coroutine ends (moving its strings out included); the server then
/// reuses it for the connection's next request, so nothing may refer to it after that.
using route_handler = std::function<boost::asio::awaitable<void>(server_request& request, response_writer& writer)>;

/** How a protocol words an error the server finds before (or instead of) its handler: a
    missing route, a wrong method, an oversized body, a rejected credential, an overload.
    Gets the HTTP status and an English sentence; returns the reply in the protocol's own shape
    (JSON-RPC, OpenAI's error object, ...). It should keep `status`.
*/
using error_shape = std::function<http_reply(unsigned status, std::string_view message)>;

/// {"error": {"message": ..., "status": ...}}, the shape of routes that set none.
http_reply plain_json_error(unsigned status, std::string_view message);

/** A table of routes, for http_server or for a Beast server of your own (beast_routes.hpp).

        forma::net::http_routes routes;
        routes.add("GET", "/health", [](auto&, auto& w) -> boost::asio::awaitable<void> {
            forma::net::http_reply ok{.content_type = "text/plain", .body = "ok"};
            co_await w.send(std::move(ok)); // named first: g++ 12 mishandles braced temporaries in co_await
        });
        routes.add_all(a2a_server.routes());   // one port, many protocols

    A path matches exactly, or as a prefix when it ends with a slash and a star ("/v1/responses/"
    then a star matches "/v1/responses/abc"). The first added route that matches wins. A request whose path matches
    but whose method does not gets 405 with an Allow header; one that matches nothing gets 404.
    A HEAD request takes a GET route when no HEAD route matches; the writer of http_server and
    of beast_routes sends its answer's head only (a stream's head, then the connection closes).
*/
class http_routes {
public:
    http_routes();

    /// Adds a route. `method` "*" takes every method.
    http_routes& add(std::string method, std::string path, route_handler handler);
    /// Every route of `other`, each keeping the error shape it had there.
    http_routes& add_all(const http_routes& other);
    /// The shape of the errors of the routes added from now on (and of 404s when no route is near).
    http_routes& shape_errors(error_shape shape);

    /// A request's route, as the server sees it before reading the body.
    struct match {
        const route_handler* handler = nullptr; ///< null: no route takes it (see status)
        unsigned status = 404;                  ///< 404 or 405 when handler is null
        std::string allow{};                    ///< for a 405: the methods the path takes
        const error_shape* shape = nullptr;     ///< never null
    };
    match find(std::string_view method, std::string_view path) const;

    /** Answers `request` (whose body is read) by its route, or with the 404/405 of the route's
        error shape. What a handler throws before answering becomes a 500 in that shape; after
        it has started, the exception is rethrown (the connection cannot be reused).
    */
    boost::asio::awaitable<void> handle(server_request& request, response_writer& writer) const;

    bool empty() const noexcept { return routes_.empty(); }

private:
    struct route {
        std::string method;
        std::string path;
        bool prefix;
        std::shared_ptr<const route_handler> handler;
        std::shared_ptr<const error_shape> shape;
    };
    std::vector<route> routes_;
    std::shared_ptr<const error_shape> shape_;
};

} // namespace forma::net
