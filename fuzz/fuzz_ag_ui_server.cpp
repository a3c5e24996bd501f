// forma::serving::ag_ui_endpoint from a client no one wrote: RunAgentInput bodies (messages,
// state, context, forwardedProps, tools) and resumes of the interrupts a sequence's runs paused
// on ("$0".."$9", fuzz_servers.hpp: an interrupt's id is "<task>/<call>"), answered, cancelled,
// twice, and now and then through another protocol's endpoint. Oracles: fuzz_servers.hpp's, and
// AG-UI's {"error": {"message", "status"}} for a request refused.
#include "fuzz_servers.hpp"

namespace {

void check_ag_ui_answer(const forma_fuzz::kept_answer& answer) {
    if (answer.head.status == 200) {
        forma_fuzz::check(answer.streamed, "an AG-UI run is answered with its events");
        for (const std::string& data : answer.events()) {
            const boost::json::value event = forma_fuzz::served_world::parsed(data);
            forma_fuzz::check(event.is_object() && event.at("type").is_string(), "an AG-UI event without a type");
        }
        return;
    }
    const boost::json::value body = forma_fuzz::served_world::parsed(answer.body);
    const boost::json::value* error = body.is_object() ? body.get_object().if_contains("error") : nullptr;
    forma_fuzz::check(error && error->is_object() && error->at("message").is_string() && error->at("status").is_number(),
                      "a refusal not in the endpoint's error shape");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    forma_fuzz::run_sequence(data, size, [](forma_fuzz::served_world& world, std::uint8_t selector, std::uint8_t as, std::string_view record) {
        std::string body = world.with_ids(record);
        switch (selector % 4) {
        case 3: // another protocol's, with an interrupt's task
            (void)world.ask(forma_fuzz::request_of("POST", "/v1/responses",
                                                   R"({"model":"m","previous_response_id":")" + body +
                                                       R"(","input":[{"type":"function_call_output","call_id":"call-1","output":"{\"approved\":true}"}]})",
                                                   as));
            break;
        default:
            check_ag_ui_answer(world.ask(forma_fuzz::request_of("POST", "/ag-ui", body, as)));
        }
    });
    return 0;
}
