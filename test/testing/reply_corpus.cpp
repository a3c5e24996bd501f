// Writes the local model server's replies as files for the OpenAI schema check
// (validate_replies.cmake): <name>.<definition>.json, one document each; a stream
// gives one file per chunk.
//   forma_model_server_corpus <directory>

#include <forma/testing/model_server.hpp>

#include "testing/generated_answer.hpp" // the generator itself, as the server runs it

#include <fstream>
#include <iostream>
#include <string>

namespace {

using forma::testing::scripted_reply;
namespace detail = forma::testing::detail;

std::string dir;
int written = 0;

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
    write_reply(name, detail::generate_answer(method, target, body, {.model = "forma-local", .seed = 1}));
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
                                                               {.seed = 2, .tool_calls_per_turn = 2}));
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
    std::cout << written << " documents written\n";
    return 0;
}
