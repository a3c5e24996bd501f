// Writes JSON documents for Python's jsonschema to judge against the OpenAI
// API's own definitions (see validate_corpus.cmake):
//   openai_corpus requests <dir>             every request_cases() body
//   openai_corpus responses_requests <dir>   the same cases (and more) as Responses API bodies
//   openai_corpus invalid <dir>              bodies the schema must reject (the control)
//   openai_corpus chunks <streams> <dir>     each event of the recorded-style streams:
//                                            chunks as *.chunk.json, errors as *.error.json

#include "request_cases.hpp"

#include <forma/net/sse_parser.hpp>
#include <forma/openai/request_builder.hpp>
#include <forma/openai/responses_parser.hpp>
#include <forma/openai/responses_request_builder.hpp>

#include <boost/json/serialize.hpp>

#include <filesystem>
#include <set>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

int write_requests(const fs::path& dir) {
    fs::create_directories(dir);
    int n = 0;
    for (const auto& c : forma_openai_test::request_cases()) {
        const auto body = forma::openai::build_request(c.messages, c.options, "gpt-4o-mini", c.stream);
        write(dir / (c.name + ".json"), boost::json::serialize(body));
        ++n;
    }
    std::cout << "wrote " << n << " request bodies\n";
    return 0;
}

// Every request case as a Responses API body, and the cases only that API has. Cases that
// the Responses API cannot express (stop sequences, a seed, audio) must be refused.
int write_responses_requests(const fs::path& dir) {
    fs::create_directories(dir);
    int n = 0;
    int refused = 0;
    fs::create_directories(dir / "parts");
    auto write_body = [&](const std::string& name, const std::vector<forma::chat_message>& messages,
                          const forma::chat_options& options, bool stream,
                          const forma::openai::responses_client_options& settings = {}) {
        auto body = forma::openai::build_responses_request(messages, options, "gpt-5", stream, settings);
        // A message item with content parts is valid under both branches of the API's own
        // oneOf (EasyInputMessage and InputMessage are alike): it is judged on its own, as an
        // EasyInputMessage, and the rest of the body without it.
        boost::json::array& input = body.at("input").as_array();
        for (std::size_t i = input.size(); i-- > 0;)
            if (input[i].as_object().contains("role") && input[i].as_object().at("content").is_array()) {
                write(dir / "parts" / (name + "-" + std::to_string(i) + ".json"), boost::json::serialize(input[i]));
                input.erase(input.begin() + static_cast<std::ptrdiff_t>(i));
            }
        write(dir / (name + ".json"), boost::json::serialize(body));
        ++n;
    };
    const std::set<std::string> inexpressible{"sampling", "four_stop_sequences", "audio", "everything_streaming"};
    for (const auto& c : forma_openai_test::request_cases()) {
        if (c.name == "additional_properties") continue; // Chat Completions' own members
        try {
            write_body(c.name, c.messages, c.options, c.stream);
        } catch (const forma::error& e) {
            if (!inexpressible.contains(c.name)) throw;
            ++refused;
        }
    }
    using forma_openai_test::user;
    const auto previous = forma::openai::parse_responses_response(R"({"id":"resp_1","status":"completed","output":[
        {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Look it up."}],"encrypted_content":"enc"},
        {"type":"function_call","id":"fc","call_id":"call_1","name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}]})");
    const forma::chat_message result(forma::chat_role::tool(),
                                     std::vector<forma::content>{forma::function_result_content("call_1", 21.5)});
    const std::vector<forma::chat_message> round_trip{user("Weather?"), previous.messages.at(0), result};
    write_body("reasoning_round_trip", round_trip, {.tools = forma_openai_test::sample_tools()}, false,
               {.store = false, .include_encrypted_reasoning = true});
    write_body("server_side_conversation", round_trip, {}, false, {.server_side_conversation = true});
    write_body("background", {user("Write a long essay")}, {.allow_background_responses = true}, false,
               {.store = true, .metadata = {{"job", "essay-1"}}});
    write_body("background_streaming", {user("Write a long essay")}, {.allow_background_responses = true}, true);
    write_body("reasoning_settings", {user("Prove it")}, {.max_output_tokens = 2000}, false,
               {.reasoning_effort = "high", .reasoning_summary = "detailed"});
    std::cout << "wrote " << n << " Responses request bodies; " << refused << " cases refused\n";
    return refused == static_cast<int>(inexpressible.size()) ? 0 : 1;
}

// Bodies a correct validator rejects: if it accepted them, the schema test would prove nothing.
int write_invalid(const fs::path& dir) {
    fs::create_directories(dir);
    using forma_openai_test::user;
    const forma::chat_message hello = user("Hello");
    auto body = [&] { return forma::openai::build_request({&hello, 1}, {}, "gpt-4o-mini", false); };

    auto no_messages = body();
    no_messages.erase("messages");
    write(dir / "no_messages.json", boost::json::serialize(no_messages));

    auto bad_format = body();
    bad_format["response_format"] = boost::json::object{{"type", "json_schema"}};
    write(dir / "json_schema_without_schema.json", boost::json::serialize(bad_format));

    auto bad_tool = body();
    bad_tool["messages"].as_array().push_back(boost::json::object{{"role", "tool"}, {"content", "x"}});
    write(dir / "tool_without_call_id.json", boost::json::serialize(bad_tool));

    auto bad_stop = body();
    bad_stop["stop"] = boost::json::array{"a", "b", "c", "d", "e"};
    write(dir / "five_stop_sequences.json", boost::json::serialize(bad_stop));

    auto bad_stream_options = body();
    bad_stream_options["stream_options"] = boost::json::object{{"include_usage", "yes"}};
    write(dir / "include_usage_not_boolean.json", boost::json::serialize(bad_stream_options));
    std::cout << "wrote 5 invalid request bodies\n";
    return 0;
}

int write_chunks(const fs::path& streams, const fs::path& dir) {
    fs::create_directories(dir);
    int chunks = 0, errors = 0;
    for (const auto& entry : fs::directory_iterator(streams)) {
        if (entry.path().extension() != ".sse") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        forma::net::sse_parser parser;
        int i = 0;
        parser.feed(text, [&](const forma::net::sse_event& e) {
            if (e.data == "[DONE]") return;
            const bool is_error = e.type == "error" || e.data.starts_with("{\"error\"");
            const std::string name = entry.path().stem().string() + "." + std::to_string(i++) +
                                     (is_error ? ".error.json" : ".chunk.json");
            write(dir / name, e.data);
            ++(is_error ? errors : chunks);
        });
    }
    std::cout << "wrote " << chunks << " chunks and " << errors << " errors\n";
    return 0;
}

} // namespace

int main(int argc, char** argv) try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "requests" && argc == 3) return write_requests(argv[2]);
    if (mode == "invalid" && argc == 3) return write_invalid(argv[2]);
    if (mode == "responses_requests" && argc == 3) return write_responses_requests(argv[2]);
    if (mode == "chunks" && argc == 4) return write_chunks(argv[2], argv[3]);
    std::cerr << "usage: openai_corpus requests|invalid <dir> | chunks <streams> <dir>\n";
    return 2;
} catch (const std::exception& e) {
    std::cerr << "openai_corpus: " << e.what() << '\n';
    return 1;
}
