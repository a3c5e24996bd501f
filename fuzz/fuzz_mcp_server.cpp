// forma::mcp::server's Streamable HTTP endpoint from a client no one wrote: JSON-RPC requests,
// notifications and responses in sessions a sequence opens, uses, ends and uses again
// ("$0".."$9", fuzz_servers.hpp: the Mcp-Session-Id an initialize gave), as its own caller or
// another, with or without a protocol version. The served tool is the agent itself (as_tool).
// Oracles: fuzz_servers.hpp's, and JSON-RPC answers with the request's id.
#include "fuzz_servers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    forma_fuzz::served_world world;
    for (const std::string_view record : forma_fuzz::records({reinterpret_cast<const char*>(data) + 1, size - 1})) {
        if (record.size() < 2) continue;
        const std::uint8_t selector = static_cast<std::uint8_t>(record[0]);
        const std::uint8_t as = static_cast<std::uint8_t>(config ^ (selector & 8));
        // The second byte names the session: '0'..'9' an id given so far, anything else none.
        const std::string session = world.with_ids(std::string("$") + record[1]);
        std::string body = world.with_ids(record.substr(2));
        forma::net::server_request request =
            forma_fuzz::request_of((selector % 8) == 7 ? "DELETE" : ((selector % 8) == 6 ? "GET" : "POST"), "/mcp", body, as);
        if (record[1] >= '0' && record[1] <= '9') request.headers.emplace_back("Mcp-Session-Id", session);
        if (selector & 16) request.headers.emplace_back("MCP-Protocol-Version", (selector & 32) ? "2025-06-18" : "1999-01-01");
        const forma_fuzz::kept_answer answer = world.ask(std::move(request));
        if ((selector % 8) < 6 && answer.head.status != 202) forma_fuzz::check_json_rpc_answer(body, answer);
    }
    world.check_consistent();
    return 0;
}
