// SSE streaming: a ~10 MB recorded-style Chat Completions stream, fed in
// network-sized reads, through the SSE parser alone and through the whole
// mapping to agent_response_updates; the same answer as a reasoning model's Responses
// API event stream through its parser, and as the argument deltas of a final_result call
// (structured_output_mode::tool), and as Anthropic's Messages API streams it. Reports MB/s and
// events/s.

#include <forma/anthropic/stream_parser.hpp>
#include <forma/model.hpp>
#include <forma/net/sse_parser.hpp>
#include <forma/openai/responses_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include <benchmark/benchmark.h>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace {

// What an OpenAI stream looks like on the wire today: every chunk repeats the
// id, model, fingerprint and service tier, carries a short content delta (one
// token, now and then with an escape or non-ASCII text) and an obfuscation pad.
struct recorded_stream {
    std::string bytes;
    std::size_t events = 0; // SSE events, [DONE] included
    std::string text;       // the answer, unescaped
};

const char* const tokens[] = {
        "The",   " quick", " brown", " fox",   " jumps", " over",  " the",   " lazy", " dog",
        ".",     " It",    "'s",     " a",     " well",  "-known", " pang",  "ram",   ",",
        " used", " to",    " test",  " fonts", "\\n",    "\\n",    "\\\"",   "Hi",    "\\\"",
        " caf",  "\xC3\xA9", " na",  "\xC3\xAF", "ve",   " \xE4\xBD\xA0\xE5\xA5\xBD", " \xF0\x9F\x9A\x80",
        " 42",   "%",      " of",    " tokens"};
const char* const pads[] = {"x1Y", "Qm", "kd8Lw", "a", "u7", "P0q", "z", "Fz", "9", "c2Vx"};

// A token as the model wrote it: its JSON escapes (the tokens have \n and \") undone.
std::string unescape(std::string_view token) {
    std::string text;
    for (std::size_t i = 0; i < token.size(); ++i) {
        char c = token[i];
        if (c == '\\') c = token[++i] == 'n' ? '\n' : token[i];
        text += c;
    }
    return text;
}

// How every chunk of the recorded stream begins, up to its delta.
const std::string_view chunk_head =
    R"(data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk",)"
    R"("created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default",)"
    R"("system_fingerprint":"fp_fc9f1d7035","choices":[{"index":0,"delta":)";

recorded_stream make_stream(std::size_t target_bytes) {
    const std::string head(chunk_head);
    recorded_stream s;
    s.bytes.reserve(target_bytes + 4096);
    s.bytes += head + R"({"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"R"})" "\n\n";
    ++s.events;
    for (std::size_t i = 0; s.bytes.size() < target_bytes; ++i) {
        const std::string_view token = tokens[i % std::size(tokens)];
        s.bytes += head;
        s.bytes += R"({"content":")";
        s.bytes += token;
        s.bytes += R"("},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":")";
        s.bytes += pads[i % std::size(pads)];
        s.bytes += "\"}\n\n";
        s.text += unescape(token);
        ++s.events;
    }
    s.bytes += head + R"({},"logprobs":null,"finish_reason":"stop"}],"usage":null,"obfuscation":"R"})" "\n\n";
    s.bytes += R"(data: {"id":"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG","object":"chat.completion.chunk",)"
               R"("created":1741570283,"model":"gpt-4o-2024-08-06","service_tier":"default",)"
               R"("system_fingerprint":"fp_fc9f1d7035","choices":[],"usage":{"prompt_tokens":19,)"
               R"("completion_tokens":40000,"total_tokens":40019,"prompt_tokens_details":)"
               R"({"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,)"
               R"("audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}},)"
               R"("obfuscation":"xV0"})" "\n\n";
    s.bytes += "data: [DONE]\n\n";
    s.events += 3;
    return s;
}

const recorded_stream& stream() {
    static const recorded_stream s = make_stream(10 * 1000 * 1000);
    return s;
}

// A reasoning model's answer as the Responses API streams it, the same answer as the chat
// stream's (the same tokens, one delta event each), every event whole as the API sends it.
struct responses_recording : recorded_stream {
    std::string reasoning;           // the reasoning summary, unescaped
    std::string encrypted_reasoning; // the reasoning item's encrypted_content in output_item.done
};

// The model's reasoning summary (asked for as "detailed": parts under a bold title each),
// JSON-escaped. It streams a word to a delta.
const std::string_view summary_parts[] = {
    R"(**Explaining the pangram**\n\nThe user asks why \"The quick brown fox jumps over the lazy )"
    R"(dog\" is used so often. It holds every letter of the English alphabet, which is why )"
    R"(typesetters and font designers show a typeface with it. I should explain that and give its )"
    R"(history briefly.)",
    R"(**Planning the answer**\n\nI'll start with the sentence itself, then its use for testing )"
    R"(fonts and keyboards, and add a few pangrams in other languages. A short list of examples, )"
    R"(with the letters each one covers, should help.)"};

// Encrypted reasoning as the API sends it, a Fernet token in base64url ("gAAAAAB..."), of
// `size` made-up characters.
std::string encrypted_content(std::size_t size, std::uint32_t seed) {
    static constexpr std::string_view base64url =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string token = "gAAAAAB";
    for (std::uint32_t x = seed; token.size() + 2 < size;) {
        x = x * 1664525u + 1013904223u;
        token += base64url[x >> 26];
    }
    return token + "==";
}

const std::string response_id = "resp_68e4b9c1f0a88195a3d26c7e41b0f58e0c2d7a9b46e13f85";
const std::string reasoning_id = "rs_68e4b9c2a7d48195b8e05f3c9a2d16e40c2d7a9b46e13f85";
const std::string message_id = "msg_68e4b9d06c3c8195a1f7e24b93c0d85a0c2d7a9b46e13f85";

// The Response of response.created, response.in_progress and response.completed: every member
// the API sends for a gpt-5 request with reasoning summaries, no tools and store off. `user`, and
// `usage` until the end, are null as the API sends them (OpenAI's definitions allow no null).
std::string response_object(bool completed, std::string_view output, std::string_view usage) {
    std::string r = R"({"id":")" + response_id + R"(","object":"response","created_at":1759822785,)";
    r += completed ? R"("status":"completed","completed_at":1759823173,)" : R"("status":"in_progress",)";
    r += R"("background":false,"error":null,"incomplete_details":null,)"
         R"("instructions":"You are a helpful assistant.","max_output_tokens":null,)"
         R"("max_tool_calls":null,"model":"gpt-5-2025-08-07","output":)";
    r += output;
    r += R"(,"parallel_tool_calls":true,"previous_response_id":null,"prompt_cache_key":null,)"
         R"("prompt_cache_retention":null,"reasoning":{"effort":"medium","summary":"detailed"},)"
         R"("safety_identifier":null,"service_tier":)";
    r += completed ? R"("default")" : R"("auto")"; // the tier asked for, then the one that served
    r += R"(,"store":false,"temperature":1.0,)"
         R"("text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],)"
         R"("top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":)";
    r += usage;
    r += R"(,"user":null,"metadata":{}})";
    return r;
}

std::string reasoning_item(std::string_view encrypted, std::string_view summary) {
    return R"({"id":")" + reasoning_id + R"(","type":"reasoning","encrypted_content":")" +
           std::string(encrypted) + R"(","summary":)" + std::string(summary) + "}";
}

std::string message_item(std::string_view status, std::string_view content) {
    return R"({"id":")" + message_id + R"(","type":"message","status":")" + std::string(status) +
           R"(","content":)" + std::string(content) + R"(,"role":"assistant"})";
}

/* A gpt-5 answer of `deltas` tokens, reasoning summaries and encrypted reasoning asked for:
   response.created and response.in_progress; the reasoning item (added, then for each summary
   part: added, word deltas, text done, part done; the item done with its summary and the
   encrypted content); the message item (added, its output_text part added, the deltas, then
   text done, part done and item done, each with the whole text); response.completed with the
   whole output and the usage. */
responses_recording make_responses_stream(std::size_t deltas) {
    constexpr std::int64_t input_tokens = 34, reasoning_tokens = 1472;
    responses_recording s;
    std::size_t sequence = 0;
    auto event = [&](std::string_view type, std::string_view members) {
        s.bytes.append("event: ").append(type).append("\ndata: {\"type\":\"").append(type);
        s.bytes.append("\",\"sequence_number\":").append(std::to_string(sequence++)).append(",");
        s.bytes.append(members).append("}\n\n");
        ++s.events;
    };

    const std::string in_progress = response_object(false, "[]", "null");
    event("response.created", R"("response":)" + in_progress);
    event("response.in_progress", R"("response":)" + in_progress);

    // The reasoning item. output_item.added has the encrypted content as it stands so far.
    const std::string in_reasoning = R"("item_id":")" + reasoning_id + R"(","output_index":0)";
    event("response.output_item.added",
          R"("output_index":0,"item":)" + reasoning_item(encrypted_content(1024, 1), "[]"));
    std::string summary;
    std::size_t words = 0;
    for (std::size_t index = 0; index < std::size(summary_parts); ++index) {
        const std::string_view text = summary_parts[index];
        const std::string in_part = in_reasoning + R"(,"summary_index":)" + std::to_string(index);
        const std::string part = R"({"type":"summary_text","text":")" + std::string(text) + "\"}";
        event("response.reasoning_summary_part.added",
              in_part + R"(,"part":{"type":"summary_text","text":""})");
        for (std::size_t begin = 0; begin < text.size(); ++words) {
            const std::size_t end = std::min(text.find(' ', begin + 1), text.size());
            event("response.reasoning_summary_text.delta",
                  in_part + R"(,"delta":")" + std::string(text.substr(begin, end - begin)) +
                      R"(","obfuscation":")" + pads[words % std::size(pads)] + "\"");
            begin = end;
        }
        event("response.reasoning_summary_text.done", in_part + R"(,"text":")" + std::string(text) + "\"");
        event("response.reasoning_summary_part.done", in_part + R"(,"part":)" + part);
        summary += (summary.empty() ? "" : ",") + part;
        s.reasoning += unescape(text);
    }
    s.encrypted_reasoning = encrypted_content(8192, 2);
    event("response.output_item.done",
          R"("output_index":0,"item":)" + reasoning_item(s.encrypted_reasoning, "[" + summary + "]"));

    // The message item: the answer's tokens, then the whole text in each done event.
    const std::string in_message =
        R"("item_id":")" + message_id + R"(","output_index":1,"content_index":0)";
    event("response.output_item.added",
          R"("output_index":1,"item":)" + message_item("in_progress", "[]"));
    event("response.content_part.added",
          in_message + R"(,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""})");
    std::string answer; // JSON-escaped, as the deltas carry it
    for (std::size_t i = 0; i < deltas; ++i) {
        const std::string_view token = tokens[i % std::size(tokens)];
        event("response.output_text.delta", in_message + R"(,"delta":")" + std::string(token) +
                                                R"(","logprobs":[],"obfuscation":")" +
                                                pads[i % std::size(pads)] + "\"");
        answer += token;
        s.text += unescape(token);
    }
    const std::string part =
        R"({"type":"output_text","annotations":[],"logprobs":[],"text":")" + answer + "\"}";
    event("response.output_text.done", in_message + R"(,"text":")" + answer + R"(","logprobs":[])");
    event("response.content_part.done", in_message + R"(,"part":)" + part);
    const std::string message = message_item("completed", "[" + part + "]");
    event("response.output_item.done", R"("output_index":1,"item":)" + message);

    const std::int64_t output_tokens = static_cast<std::int64_t>(deltas) + reasoning_tokens;
    const std::string usage =
        R"({"input_tokens":)" + std::to_string(input_tokens) +
        R"(,"input_tokens_details":{"cached_tokens":0,"cache_write_tokens":0},"output_tokens":)" +
        std::to_string(output_tokens) +
        R"(,"output_tokens_details":{"reasoning_tokens":)" + std::to_string(reasoning_tokens) +
        R"(},"total_tokens":)" + std::to_string(input_tokens + output_tokens) + "}";
    const std::string output =
        "[" + reasoning_item(encrypted_content(8192, 3), "[" + summary + "]") + "," + message + "]";
    event("response.completed", R"("response":)" + response_object(true, output, usage));
    return s;
}

// The chat stream's answer: one delta per chunk but the first and the two last, and [DONE].
const responses_recording& responses_stream() {
    static const responses_recording s = make_responses_stream(stream().events - 4);
    return s;
}

// The same answer as structured_output_mode::tool receives it: the argument deltas of a forced
// call of final_result, one per chunk, in chunks shaped as the chat stream's.
recorded_stream make_tool_answer_stream(std::size_t deltas) {
    const std::string head(chunk_head);
    recorded_stream s;
    s.bytes += head + R"({"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_Ab12Cd34Ef56Gh78",)"
                      R"("type":"function","function":{"name":"final_result","arguments":""}}],"refusal":null},)"
                      R"("logprobs":null,"finish_reason":null}],"usage":null})" "\n\n";
    for (std::size_t i = 0; i < deltas; ++i) {
        const std::string_view token = tokens[i % std::size(tokens)];
        s.bytes += head;
        s.bytes += R"({"tool_calls":[{"index":0,"function":{"arguments":")";
        s.bytes += token;
        s.bytes += R"("}}]},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":")";
        s.bytes += pads[i % std::size(pads)];
        s.bytes += "\"}\n\n";
        s.text += unescape(token);
    }
    s.bytes += head + R"({},"logprobs":null,"finish_reason":"stop"}],"usage":null})" "\n\n";
    s.bytes += "data: [DONE]\n\n";
    s.events = deltas + 3;
    return s;
}

// The same answer as Anthropic's Messages API streams it: message_start, a text block of one
// text_delta per token (the chat stream's deltas), message_delta with the usage, message_stop.
recorded_stream make_messages_stream(std::size_t deltas) {
    recorded_stream s;
    const auto event = [&s](std::string_view type, std::string_view data) {
        s.bytes.append("event: ").append(type).append("\ndata: ").append(data).append("\n\n");
        ++s.events;
    };
    event("message_start", R"({"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message",)"
                           R"("role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,)"
                           R"("stop_sequence":null,"usage":{"input_tokens":19,"cache_creation_input_tokens":0,)"
                           R"("cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}})");
    event("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})");
    for (std::size_t i = 0; i < deltas; ++i) {
        const std::string_view token = tokens[i % std::size(tokens)];
        event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":")" +
                                         std::string(token) + "\"}}");
        s.text += unescape(token);
        if (i % 64 == 0) event("ping", R"({"type": "ping"})");
    }
    event("content_block_stop", R"({"type":"content_block_stop","index":0})");
    event("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},)"
                           R"("usage":{"output_tokens":40000}})");
    event("message_stop", R"({"type":"message_stop"})");
    return s;
}

const recorded_stream& messages_stream() {
    static const recorded_stream s = make_messages_stream(stream().events - 4);
    return s;
}

const recorded_stream& tool_answer_stream() {
    static const recorded_stream s = make_tool_answer_stream(stream().events - 4);
    return s;
}

void report(benchmark::State& state, const recorded_stream& s) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s.bytes.size()));
    state.counters["events/s"] =
        benchmark::Counter(static_cast<double>(s.events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["stream_MB"] = static_cast<double>(s.bytes.size()) / 1e6;
}

// The SSE layer alone: framing, line ends, data joining.
void sse_parse(benchmark::State& state) {
    const recorded_stream& s = stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::net::sse_parser parser;
        std::size_t events = 0, data_bytes = 0;
        for (std::size_t at = 0; at < s.bytes.size(); at += read_size) {
            std::string_view read = std::string_view(s.bytes).substr(at, read_size);
            while (const forma::net::sse_event* e = parser.next(read)) {
                ++events;
                data_bytes += e->data.size();
            }
        }
        if (events != s.events) {
            state.SkipWithError("the SSE parser did not find every event");
            break;
        }
        benchmark::DoNotOptimize(data_bytes);
    }
    report(state, s);
}

// `s` through `parser` in reads of `read_size`, then finish(): the bytes of text it handed out.
template <class Parser>
std::size_t map_text(Parser& parser, const recorded_stream& s, std::size_t read_size) {
    std::size_t text_bytes = 0;
    for (std::size_t at = 0; at < s.bytes.size(); at += read_size) {
        std::string_view read = std::string_view(s.bytes).substr(at, read_size);
        while (auto update = parser.next(read)) {
            for (const forma::content& c : update->contents)
                if (const auto* t = std::get_if<forma::text_content>(&c)) text_bytes += t->text.size();
            benchmark::DoNotOptimize(*update);
        }
    }
    parser.finish();
    return text_bytes;
}

// SSE parse and delta mapping: what a streaming run costs before the caller sees an update.
void sse_parse_and_map(benchmark::State& state, bool keep_raw) {
    const recorded_stream& s = stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::openai::stream_parser parser({.keep_raw_chunks = keep_raw});
        std::size_t updates = 0, text_bytes = 0;
        for (std::size_t at = 0; at < s.bytes.size(); at += read_size) {
            std::string_view read = std::string_view(s.bytes).substr(at, read_size);
            while (auto update = parser.next(read)) {
                ++updates;
                for (const forma::content& c : update->contents)
                    if (const auto* t = std::get_if<forma::text_content>(&c)) text_bytes += t->text.size();
                benchmark::DoNotOptimize(*update);
            }
        }
        parser.finish();
        // Every chunk but [DONE] is an update; the text arrives whole.
        if (updates != s.events - 1 || text_bytes != s.text.size() || !parser.done()) {
            state.SkipWithError("the stream did not map to the expected updates");
            break;
        }
    }
    report(state, s);
}

// The alternative the design weighed: a Boost.JSON DOM per chunk, the parser and a
// stack buffer reused across chunks, then the same mapping by hand (content, ids,
// created, model, finish reason). Kept to show why the stream parser reads chunks
// with forma::from_json instead.
void sse_boost_json_dom_and_map(benchmark::State& state) {
    const recorded_stream& s = stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::net::sse_parser sse;
        boost::json::parser parser;
        std::string model;
        std::size_t updates = 0, text_bytes = 0;
        for (std::size_t at = 0; at < s.bytes.size(); at += read_size) {
            std::string_view read = std::string_view(s.bytes).substr(at, read_size);
            while (const forma::net::sse_event* e = sse.next(read)) {
                if (e->data == "[DONE]") continue;
                unsigned char buffer[4096];
                boost::json::monotonic_resource memory(buffer, sizeof buffer);
                parser.reset(&memory);
                boost::system::error_code ec;
                parser.write(e->data, ec);
                if (ec) {
                    state.SkipWithError("invalid chunk");
                    return;
                }
                const boost::json::value chunk = parser.release();
                const boost::json::object& o = chunk.as_object();
                forma::agent_response_update u;
                if (const auto* id = o.if_contains("id")) u.response_id = id->as_string();
                if (const auto* created = o.if_contains("created"))
                    u.created_at = std::chrono::system_clock::time_point(std::chrono::seconds(created->as_int64()));
                if (const auto* m = o.if_contains("model"); m && m->as_string() != model) {
                    model = m->as_string();
                    u.additional_properties["model"] = model;
                }
                const auto& choices = o.at("choices").as_array();
                if (!choices.empty()) {
                    u.message_id = u.response_id;
                    const auto& choice = choices[0].as_object();
                    const auto& delta = choice.at("delta").as_object();
                    if (const auto* c = delta.if_contains("content"); c && c->is_string() && !c->as_string().empty()) {
                        u.contents.emplace_back(forma::text_content(std::string(c->as_string())));
                        text_bytes += c->as_string().size();
                    }
                    if (const auto* f = choice.if_contains("finish_reason"); f && f->is_string())
                        u.finish_reason = forma::finish_reason(std::string(f->as_string()));
                }
                ++updates;
                benchmark::DoNotOptimize(u);
            }
        }
        if (text_bytes != s.text.size()) {
            state.SkipWithError("the stream did not map to the expected text");
            break;
        }
    }
    report(state, s);
}

// The whole consumer path: parse, map and merge into one response.
void sse_parse_map_and_merge(benchmark::State& state) {
    const recorded_stream& s = stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::openai::stream_parser parser;
        forma::agent_response_builder builder;
        for (std::size_t at = 0; at < s.bytes.size(); at += read_size) {
            std::string_view read = std::string_view(s.bytes).substr(at, read_size);
            while (auto update = parser.next(read)) builder.add(std::move(*update));
        }
        parser.finish();
        const forma::agent_response<>& r = builder.response();
        if (r.messages.size() != 1 || r.messages[0].text().size() != s.text.size() || !r.usage) {
            state.SkipWithError("the stream did not merge into the expected response");
            break;
        }
        benchmark::DoNotOptimize(r);
    }
    report(state, s);
}

// Whether the Responses stream maps, through the whole parser, to the chat stream's answer, the
// reasoning summary and the encrypted reasoning, and ends.
bool responses_stream_maps_to_the_answer() {
    const responses_recording& s = responses_stream();
    forma::openai::responses_stream_parser parser;
    std::string text, reasoning;
    std::optional<std::string> encrypted;
    std::string_view rest = s.bytes;
    while (auto update = parser.next(rest))
        for (const forma::content& c : update->contents)
            if (const auto* t = std::get_if<forma::text_content>(&c))
                text += t->text;
            else if (const auto* r = std::get_if<forma::text_reasoning_content>(&c)) {
                reasoning += r->text;
                if (r->protected_data) encrypted = r->protected_data;
            }
    return parser.finished() && text == stream().text && reasoning == s.reasoning &&
           encrypted == s.encrypted_reasoning;
}

// The Responses API's event stream of the same answer, parsed and mapped: compared with
// sse_parse_and_map/typed, the cost of the Responses protocol for the same answer.
void responses_parse_and_map(benchmark::State& state) {
    static const bool maps = responses_stream_maps_to_the_answer(); // once, outside the timing
    if (!maps) {
        state.SkipWithError("the Responses stream did not map to the answer, reasoning and encrypted reasoning");
        return;
    }
    const recorded_stream& s = responses_stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::openai::responses_stream_parser parser;
        const std::size_t text_bytes = map_text(parser, s, read_size);
        if (text_bytes != s.text.size()) {
            state.SkipWithError("the Responses stream did not map to the expected text");
            break;
        }
    }
    report(state, s);
}

// structured_output_mode::tool: the answer tool's argument deltas mapped to text deltas.
// Compared with sse_parse_and_map/typed, the cost of reading the answer from a tool call.
void tool_answer_parse_and_map(benchmark::State& state) {
    const recorded_stream& s = tool_answer_stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::openai::stream_parser parser({.answer_tool = "final_result"});
        const std::size_t text_bytes = map_text(parser, s, read_size);
        if (text_bytes != s.text.size() || text_bytes != stream().text.size()) {
            state.SkipWithError("the tool call did not map to the expected text");
            break;
        }
    }
    report(state, s);
}

// Anthropic's Messages stream of the same answer, parsed and mapped: compared with
// sse_parse_and_map/typed, the cost of the Messages protocol for the same answer (goal: 1.3 at most).
void messages_parse_and_map(benchmark::State& state) {
    const recorded_stream& s = messages_stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::anthropic::stream_parser parser;
        const std::size_t text_bytes = map_text(parser, s, read_size);
        if (text_bytes != s.text.size() || text_bytes != stream().text.size() || !parser.done()) {
            state.SkipWithError("the Messages stream did not map to the expected text");
            break;
        }
    }
    report(state, s);
}

} // namespace

// Reads of 1.5 KB (about one TLS record's worth of a trickling stream) and 16 KB (a full TLS record).
BENCHMARK(sse_parse)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sse_parse_and_map, typed, false)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(sse_parse_and_map, keep_raw_chunks, true)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(sse_boost_json_dom_and_map)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(sse_parse_map_and_merge)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(responses_parse_and_map)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(tool_answer_parse_and_map)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);
BENCHMARK(messages_parse_and_map)->Arg(1536)->Arg(16384)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
