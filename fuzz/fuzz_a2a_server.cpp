// forma::a2a::server from a client no one wrote: JSON-RPC envelopes and A2A messages and parts in
// both versions (the config byte's A2A-Version header, or the method's name), in sequences that
// start tasks and answer, follow, cancel and ask for them again ("$0".."$9", fuzz_servers.hpp),
// approvals answered by words and by data parts, and now and then another protocol's endpoint
// with an A2A task's id. Oracles: fuzz_servers.hpp's, JSON-RPC answers with the request's id,
// and a card whose URL is the address the request reached whatever Host it sent.
#include "fuzz_servers.hpp"

namespace {

void check_card(const forma_fuzz::kept_answer& answer) {
    const boost::json::value card = forma_fuzz::served_world::parsed(answer.body);
    const boost::json::value& url = card.at("supportedInterfaces").at(0).at("url");
    forma_fuzz::check(url == "http://127.0.0.1:8080/a2a", "the card names a URL that is not the server's");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    forma_fuzz::run_sequence(data, size, [](forma_fuzz::served_world& world, std::uint8_t selector, std::uint8_t as, std::string_view record) {
        std::string body = world.with_ids(record);
        switch (selector % 8) {
        case 5: { // the card, asked for with the body as the Host
            forma::net::server_request r = forma_fuzz::request_of("GET", "/.well-known/agent-card.json", {}, as);
            r.headers.emplace_back("Host", body);
            check_card(world.ask(std::move(r)));
            break;
        }
        case 6: // another protocol's endpoints, with an id
            (void)world.ask(forma_fuzz::request_of("GET", "/v1/responses/" + body, {}, as));
            break;
        case 7:
            (void)world.ask(forma_fuzz::request_of(
                "POST", "/ag-ui", R"({"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":")" + body + R"(/call-1","status":"resolved","payload":true}]})", as));
            break;
        default: {
            const forma_fuzz::kept_answer answer = world.ask(forma_fuzz::request_of("POST", "/a2a", body, as));
            forma_fuzz::check_json_rpc_answer(body, answer);
        }
        }
    });
    return 0;
}
