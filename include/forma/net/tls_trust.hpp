#pragma once

#include <memory>
#include <string>

namespace boost::asio::ssl {
class context;
} // namespace boost::asio::ssl

namespace forma::net {

/** Which servers a client trusts over TLS: one member, `trust`, in every client's options
    (OpenAI, MCP over HTTP, A2A, Redis, the OTLP exporter).

        forma::openai::chat_client client(executor, {.base_url = "https://llm.internal/v1",
                                                      .trust = {.ca_file = "/etc/app/llm-ca.pem"}});

    By default the system's trust store, the certificate's name or address checked against the
    host, TLS 1.2 or newer. A client makes its TLS context once and shares it between its
    connections.
*/
struct tls_trust {
    /// A PEM file of further trust anchors (e.g. a private server's certificate); the system store stays on.
    std::string ca_file{};
    /// Further trust anchors as PEM text, like ca_file.
    std::string ca_certificates{};
    /// Verify the server's certificate and host name. Turn off only for a throwaway local server.
    bool verify_peer = true;
    /** A context the caller set up (client certificates, pinned anchors, ciphers): used as it is,
        and the members above are ignored. forma still sets each connection's host name (SNI
        and, when the context verifies peers, the name check).
    */
    std::shared_ptr<boost::asio::ssl::context> context{};
};

} // namespace forma::net
