// forma::serving::openai_endpoints from a client no one wrote: Chat Completions and Responses
// bodies (messages, input items, tool results that answer approvals, response formats,
// previous_response_id, background, stream), and retrieve, stream again and cancel of what a
// sequence started ("$0".."$9", fuzz_servers.hpp), now and then with another protocol's task id.
// Oracles: fuzz_servers.hpp's, and OpenAI's error object for every error.
#include "fuzz_servers.hpp"

namespace {

void check_openai_error(const forma_fuzz::kept_answer& answer) {
    if (answer.head.status < 400) return;
    const boost::json::value body = forma_fuzz::served_world::parsed(answer.body);
    const boost::json::value* error = body.is_object() ? body.get_object().if_contains("error") : nullptr;
    forma_fuzz::check(error && error->is_object() && error->at("message").is_string() && error->at("type").is_string() &&
                          error->get_object().contains("param") && error->get_object().contains("code"),
                      "an error not in OpenAI's shape");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    forma_fuzz::run_sequence(data, size, [](forma_fuzz::served_world& world, std::uint8_t selector, std::uint8_t as, std::string_view record) {
        std::string body = world.with_ids(record);
        forma::net::server_request request;
        switch (selector % 8) {
        case 0: case 1: request = forma_fuzz::request_of("POST", "/v1/chat/completions", body, as); break;
        case 2: case 3: request = forma_fuzz::request_of("POST", "/v1/responses", body, as); break;
        case 4: request = forma_fuzz::request_of("GET", "/v1/responses/" + body, {}, as); break; // the body may add ?stream=true&starting_after=N
        case 5: request = forma_fuzz::request_of("POST", "/v1/responses/" + body + "/cancel", "{}", as); break;
        case 6: request = forma_fuzz::request_of((selector & 16) ? "HEAD" : "GET", "/v1/models", {}, as); break;
        default: // another protocol's, with an id
            request = forma_fuzz::request_of("POST", "/a2a", R"({"jsonrpc":"2.0","id":1,"method":"tasks/cancel","params":{"id":")" + body + R"("}})", as);
        }
        const forma_fuzz::kept_answer answer = world.ask(std::move(request));
        if (selector % 8 != 7) check_openai_error(answer);
    });
    return 0;
}
