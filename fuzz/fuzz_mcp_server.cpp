// forma::mcp::server's Streamable HTTP endpoint from a client no one wrote: JSON-RPC requests,
// notifications and responses in sessions a sequence opens, uses, ends and uses again
// ("$0".."$9", fuzz_servers.hpp: the Mcp-Session-Id an initialize gave), as its own caller or
// another, with or without a protocol version; a GET's stream is left once it idles. The served
// tool is the agent itself (as_tool).
// Oracles: fuzz_servers.hpp's, and JSON-RPC answers with the request's id.
#include "fuzz_servers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    forma_fuzz::run_sequence(data, size, [](forma_fuzz::served_world& world, std::uint8_t selector, std::uint8_t as, std::string_view record) {
        if (record.empty()) return;
        // The record's first byte names the session: '0'..'9' an id given so far, anything else none.
        const bool named = record[0] >= '0' && record[0] <= '9';
        const std::string session = world.with_ids(std::string("$") + record[0]);
        std::string body = world.with_ids(record.substr(1));
        const char* method = (selector % 8) == 7 ? "DELETE" : ((selector % 8) == 6 ? "GET" : "POST");
        forma::net::server_request request = forma_fuzz::request_of(method, "/mcp", body, as);
        if (named) request.headers.emplace_back("Mcp-Session-Id", session);
        if (selector & 16) request.headers.emplace_back("MCP-Protocol-Version", (selector & 32) ? "2025-11-25" : "1999-01-01");
        const forma_fuzz::kept_answer answer = world.ask(std::move(request), std::string_view(method) == "GET");
        if ((selector % 8) < 6 && answer.head.status != 202) forma_fuzz::check_json_rpc_answer(body, answer);
    });
    return 0;
}
