// Writes the local model server's replies as files for the OpenAI schema check
// (validate_replies.cmake): <name>.<definition>.json, one document each; a stream
// gives one file per chunk. A Responses stream's framing (each `event:` line naming its
// data's type, sequence numbers counting up by one) is checked here: it fails the run.
//   forma_model_server_corpus <directory>

#include <forma/testing/model_server.hpp>

#include "testing/generated_answer.hpp"   // the generators themselves, as the server runs them
#include "testing/responses_endpoint.hpp"

#include <boost/json/parse.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <string>

namespace {

using forma::testing::scripted_reply;
namespace detail = forma::testing::detail;

std::string dir;
int written = 0;
int broken = 0;

void write(const std::string& name, const std::string& definition, const std::string& text) {
    std::ofstream(dir + "/" + name + "." + definition + ".json", std::ios::binary) << text;
    ++written;
}

void write_reply(const std::string& name, const scripted_reply& reply) {
    if (reply.chunks.empty()) {
        write(name, reply.status == 200 ? "CreateChatCompletionResponse" : "ErrorResponse", reply.body);
        return;
    }
    int i = 0;
    for (const std::string& event : reply.chunks) {
        const std::string data = event.substr(6, event.size() - 8); // "data: " ... "\n\n"
        if (data != "[DONE]") write(name + "-" + std::to_string(i++), "CreateChatCompletionStreamResponse", data);
    }
}

void write_generated(const std::string& name, std::string_view body, std::string_view target = "/v1/chat/completions",
                     std::string_view method = "POST") {
    write_reply(name, detail::generate_answer(method, target, body, {{.model = "forma-local", .seed = 1}}));
}

void fail(const std::string& name, const std::string& why) {
    std::cerr << name << ": " << why << "\n";
    ++broken;
}

// A Responses reply: a Response (or an error) whole; streamed, one ResponseStreamEvent per
// chunk, framed as `event: <type>\ndata: <json>\n\n` and numbered from `first`.
void write_responses_reply(const std::string& name, const scripted_reply& reply, std::int64_t first = 0) {
    if (reply.chunks.empty()) {
        write(name, reply.status == 200 ? "Response" : "ErrorResponse", reply.body);
        return;
    }
    std::int64_t expected = first;
    for (const std::string& event : reply.chunks) {
        const std::size_t nl = event.find('\n');
        const std::string type = event.substr(7, nl - 7); // "event: "
        const std::string data = event.substr(nl + 7, event.size() - nl - 9); // "data: " ... "\n\n"
        if (!event.starts_with("event: ") || !event.ends_with("\n\n")) fail(name, "not an SSE event: " + event);
        const boost::json::value parsed = boost::json::parse(data);
        if (parsed.at("type") != boost::json::value(type)) fail(name, "the event line says " + type + ": " + data);
        if (parsed.at("sequence_number") != boost::json::value(expected)) fail(name, "out of sequence: " + data);
        write(name + "-" + std::to_string(expected++), "ResponseStreamEvent", data);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: forma_model_server_corpus <directory>\n";
        return 2;
    }
    dir = argv[1];
    const std::string messages = R"("messages":[{"role":"system","content":"be brief"},
        {"role":"user","content":[{"type":"text","text":"Ada Lovelace, 36, mathematician"}]}])";
    const std::string schema = R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},
        "tags":{"type":"array","items":{"type":"string"}}},"required":["name","age","tags"],"additionalProperties":false})";

    write_generated("text", "{" + messages + "}");
    write_generated("json_object", R"({"response_format":{"type":"json_object"},)" + messages + "}");
    write_generated("json_schema", R"({"response_format":{"type":"json_schema","json_schema":{"name":"p","schema":)" +
                                       schema + "}}," + messages + "}");
    write_generated("stream", R"({"stream":true,)" + messages + "}");
    write_generated("stream_usage", R"({"stream":true,"stream_options":{"include_usage":true},)" + messages + "}");
    write_generated("not_found", "{}", "/v1/models");
    write_generated("wrong_method", "", "/v1/chat/completions", "GET");
    write_generated("not_json", "nope");
    write_generated("no_messages", "{}");
    write_generated("bad_schema", R"({"response_format":{"type":"json_schema","json_schema":{"name":"p",
        "schema":{"oneOf":[{"type":"string"}]}}},)" + messages + "}");

    const std::string tools = R"("tools":[{"type":"function","function":{"name":"get_weather","parameters":
        {"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},
        "required":["city","days"],"additionalProperties":false}}},{"type":"function","function":{"name":"ping"}}],)";
    write_generated("tool_call", "{" + tools + messages + "}");
    write_generated("tool_call_stream", R"({"stream":true,"stream_options":{"include_usage":true},)" + tools +
                                            messages + "}");
    write_reply("tool_calls_parallel", detail::generate_answer("POST", "/v1/chat/completions",
                                                               R"({"stream":true,)" + tools + messages + "}",
                                                               {{.seed = 2, .tool_calls_per_turn = 2}}));
    write_generated("tool_choice_named", R"({"tool_choice":{"type":"function","function":{"name":"ping"}},)" + tools +
                                             messages + "}");
    write_generated("tool_choice_unknown", R"({"tool_choice":{"type":"function","function":{"name":"nope"}},)" +
                                               tools + messages + "}");
    write_generated("bad_tool_schema", R"({"tools":[{"type":"function","function":{"name":"odd","parameters":
        {"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}},"required":["a"]}}}],)" + messages + "}");
    write_generated("after_tool_result", "{" + tools + R"("messages":[{"role":"user","content":"Weather in Oslo?"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function",
                                                          "function":{"name":"get_weather","arguments":"{}"}}]},
        {"role":"tool","tool_call_id":"c1","content":"5 degrees"}]})");
    const std::vector<forma::testing::scripted_tool_call> calls{{"call_1", "get_weather", R"({"city":"Oslo"})"},
                                                                {"call_2", "ping", "{broken"}};
    write_reply("scripted_tool_calls", scripted_reply::tool_calls(calls));
    write_reply("scripted_tool_calls_with_text", scripted_reply::tool_calls(calls, "Let me look."));
    write_reply("scripted_tool_calls_stream", scripted_reply::stream_tool_calls(calls, 3, "Let me look."));

    write_reply("completion", scripted_reply::completion("scripted answer"));
    write_reply("completion_length", scripted_reply::completion("cut sh", "length"));
    write_reply("scripted_stream", scripted_reply::stream("héllo wörld ☕ done", 2, "length"));
    write_reply("error", scripted_reply::error(429, "rate_limit_error", "Slow down.", "rate_limit_exceeded"));
    write_reply("error_no_code", scripted_reply::error(500, "server_error", "Oops."));

    // The Responses API, on a clock of its own: `at(ms)` is that long after the start.
    detail::responses_endpoint responses;
    const auto start = detail::responses_endpoint::clock::now();
    auto at = [&](int ms) { return start + std::chrono::milliseconds(ms); };
    std::uint64_t request = 0;
    auto respond = [&](std::string_view body, detail::generation options = {}, std::string_view method = "POST",
                       std::string target = "/v1/responses", int ms = 0) {
        options.seed = 1;
        options.request_number = request++;
        return responses.answer(method, target, body, options, at(ms));
    };
    const std::string input = R"("model":"m","input":"Ada Lovelace, 36, mathematician")";
    const std::string items = R"("model":"m","instructions":"be brief","metadata":{"k":"v"},"input":[
        {"role":"system","content":"be brief"},{"type":"message","role":"developer","content":"no jokes"},
        {"type":"message","role":"user","content":[{"type":"input_text","text":"Ada Lovelace"},
            {"type":"input_image","image_url":"https://example.com/a.png","detail":"auto"}]},
        {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Yes?","annotations":[]}]},
        {"type":"reasoning","id":"rs_x","summary":[]},{"type":"some_new_item"},
        {"role":"user","content":"36, mathematician"}])";
    const std::string response_tools = R"("tools":[{"type":"function","name":"get_weather","description":"Weather.",
        "parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},
        "required":["city","days"],"additionalProperties":false},"strict":true},{"type":"function","name":"ping"},
        {"type":"web_search"}],)";
    write_responses_reply("resp_text", respond("{" + input + "}"));
    write_responses_reply("resp_items", respond("{" + items + "}"));
    write_responses_reply("resp_stream", respond(R"({"stream":true,"temperature":0.5,)" + input + "}",
                                                 {{.delta_size = 5}}));
    write_responses_reply("resp_json_object", respond(R"({"text":{"format":{"type":"json_object"}},)" + input + "}"));
    write_responses_reply("resp_json_schema", respond(R"({"text":{"format":{"type":"json_schema","name":"p",
        "strict":true,"schema":)" + schema + "}}," + input + "}"));
    write_responses_reply("resp_tool_call", respond("{" + response_tools + input + "}"));
    write_responses_reply("resp_tool_calls_stream", respond(R"({"stream":true,)" + response_tools + input + "}",
                                                            {{.tool_calls_per_turn = 2}}));
    write_responses_reply("resp_tool_choice_named", respond(R"({"tool_choice":{"type":"function","name":"ping"},
        "parallel_tool_calls":false,)" + response_tools + input + "}"));
    write_responses_reply("resp_tool_choice_required", respond(R"({"tool_choice":"required",)" + response_tools +
                                                               input + "}"));
    write_responses_reply("resp_after_tool_output", respond("{" + response_tools + R"("model":"m","input":[
        {"role":"user","content":"Weather in Oslo?"},
        {"type":"function_call","call_id":"c1","name":"get_weather","arguments":"{}"},
        {"type":"function_call_output","call_id":"c1","output":"5 degrees"}]})"));
    const detail::generation reasoning{{.reasoning_summary = "Thinking about Ada."}};
    write_responses_reply("resp_reasoning", respond("{" + input + "}", reasoning));
    write_responses_reply("resp_reasoning_stream",
                          respond(R"({"stream":true,"include":["reasoning.encrypted_content"],)" + response_tools +
                                      input + "}",
                                  reasoning));
    write_responses_reply("resp_incomplete", respond(R"({"max_output_tokens":2,)" + input + "}"));
    write_responses_reply("resp_incomplete_stream", respond(R"({"stream":true,"max_output_tokens":3,)" + input + "}",
                                                            reasoning));

    // A background run over 100 ms: queued, in progress, completed; its stream; a resume; a cancel.
    const detail::generation background{{.background_duration = std::chrono::milliseconds(100)}};
    auto get = [&](const std::string& target, int ms) { return respond("", background, "GET", target, ms); };
    auto post = [&](const std::string& target, int ms) { return respond("", background, "POST", target, ms); };
    const std::string first_id = "resp_" + std::to_string(request), first = "/v1/responses/" + first_id;
    write_responses_reply("resp_background_queued", respond(R"({"background":true,)" + input + "}", background));
    write_responses_reply("resp_background_in_progress", get(first, 60));
    write_responses_reply("resp_background_done", get(first, 100));
    write_responses_reply("resp_background_stream",
                          respond(R"({"background":true,"stream":true,)" + input + "}", background));
    write_responses_reply("resp_resume", get(first + "?stream=true&starting_after=3", 30), 4);
    const std::string cancelled = "/v1/responses/resp_" + std::to_string(request);
    respond(R"({"background":true,)" + input + "}", background);
    write_responses_reply("resp_cancelled", post(cancelled + "/cancel", 50));
    write_responses_reply("resp_cancelled_again", post(cancelled + "/cancel", 90));
    write_responses_reply("resp_cancelled_stream", get(cancelled + "?stream=true", 200));
    write_responses_reply("resp_previous", respond(R"({"model":"m","previous_response_id":")" + first_id +
                                                   R"(","input":[{"role":"user","content":"And Babbage?"}]})"));

    write_responses_reply("resp_not_found", get("/v1/responses/resp_nope", 0));
    write_responses_reply("resp_cancel_not_found", post("/v1/responses/resp_nope/cancel", 0));
    write_responses_reply("resp_previous_not_found", respond(R"({"previous_response_id":"resp_nope",)" + input + "}"));
    write_responses_reply("resp_cancel_foreground", post("/v1/responses/resp_0/cancel", 0));
    write_responses_reply("resp_cancel_completed", post(first + "/cancel", 500));
    write_responses_reply("resp_background_not_stored", respond(R"({"background":true,"store":false,)" + input + "}"));
    write_responses_reply("resp_no_input", respond(R"({"model":"m"})"));
    write_responses_reply("resp_not_json", respond("nope"));
    write_responses_reply("resp_wrong_method", respond("", {}, "DELETE", "/v1/responses/resp_0"));
    write_responses_reply("resp_bad_cursor", get("/v1/responses/resp_0?stream=true&starting_after=x", 0));
    write_responses_reply("resp_bad_schema", respond(R"({"text":{"format":{"type":"json_schema","name":"p",
        "schema":{"oneOf":[{"type":"string"}]}}},)" + input + "}"));
    write_responses_reply("resp_tool_choice_unknown", respond(R"({"tool_choice":{"type":"function","name":"nope"},)" +
                                                              response_tools + input + "}"));

    for (std::string_view status : {"completed", "incomplete", "queued", "in_progress", "cancelled", "failed"})
        write_responses_reply("scripted_response_" + std::string(status),
                              scripted_reply::response_text("scripted answer", status));
    write_responses_reply("scripted_response_stream", scripted_reply::response_stream("héllo wörld ☕ done", 2));
    write_responses_reply("scripted_response_calls", scripted_reply::response_function_calls(calls));
    write_responses_reply("scripted_response_events",
                          scripted_reply::response_events(
                              {R"({"type":"response.output_text.delta","item_id":"m","output_index":0,)"
                               R"("content_index":0,"delta":"hi","logprobs":[],"sequence_number":0})",
                               R"({"type":"error","code":null,"message":"Oops.","param":null,"sequence_number":1})"}));

    std::cout << written << " documents written\n";
    return broken == 0 ? 0 : 1;
}
