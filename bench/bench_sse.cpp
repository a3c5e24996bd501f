// SSE streaming: a ~10 MB recorded-style Chat Completions stream, fed in
// network-sized reads, through the SSE parser alone and through the whole
// mapping to agent_response_updates; the same answer as a Responses API event
// stream through its parser, and as the argument deltas of a final_result call
// (structured_output_mode::tool). Reports MB/s and events/s.

#include <forma/model.hpp>
#include <forma/net/sse_parser.hpp>
#include <forma/openai/responses_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include <benchmark/benchmark.h>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parser.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace {

// What an OpenAI stream looks like on the wire today: every chunk repeats the
// id, model, fingerprint and service tier, carries a short content delta (one
// token, now and then with an escape or non-ASCII text) and an obfuscation pad.
struct recorded_stream {
    std::string bytes;
    std::size_t events = 0;       // SSE events, [DONE] included
    std::size_t text_bytes = 0;   // bytes of the answer text, unescaped
};

const char* const tokens[] = {
        "The",   " quick", " brown", " fox",   " jumps", " over",  " the",   " lazy", " dog",
        ".",     " It",    "'s",     " a",     " well",  "-known", " pang",  "ram",   ",",
        " used", " to",    " test",  " fonts", "\\n",    "\\n",    "\\\"",   "Hi",    "\\\"",
        " caf",  "\xC3\xA9", " na",  "\xC3\xAF", "ve",   " \xE4\xBD\xA0\xE5\xA5\xBD", " \xF0\x9F\x9A\x80",
        " 42",   "%",      " of",    " tokens"};
const char* const pads[] = {"x1Y", "Qm", "kd8Lw", "a", "u7", "P0q", "z", "Fz", "9", "c2Vx"};

// A token's length once unescaped (a JSON escape is two bytes for one).
std::size_t unescaped(std::string_view t) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < t.size(); ++i, ++n)
        if (t[i] == '\\') ++i;
    return n;
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
        s.text_bytes += unescaped(token);
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

// The same answer (the same tokens, one delta event each) as the Responses API streams it:
// typed events with an item id, indexes, a sequence number, logprobs and an obfuscation pad.
recorded_stream make_responses_stream(std::size_t deltas) {
    const std::string response =
        R"({"id":"resp_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654","object":"response",)"
        R"("created_at":1741290958,"status":"in_progress","model":"gpt-4.1-2025-04-14","output":[]})";
    recorded_stream s;
    std::size_t sequence = 0;
    auto event = [&](std::string_view type, const std::string& rest) {
        s.bytes.append("event: ").append(type).append("\ndata: {\"type\":\"").append(type).append("\",");
        s.bytes.append(rest).append(",\"sequence_number\":").append(std::to_string(sequence++)).append("}\n\n");
        ++s.events;
    };
    const std::string item = R"("item_id":"msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654","output_index":0)";
    event("response.created", R"("response":)" + response);
    event("response.in_progress", R"("response":)" + response);
    event("response.output_item.added", R"("output_index":0,"item":{"id":"msg_67c9fdcf37fc8190ba82116e33fb28c507b8b0ad4e5eb654","type":"message","status":"in_progress","role":"assistant","content":[]})");
    event("response.content_part.added", item + R"(,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]})");
    for (std::size_t i = 0; i < deltas; ++i) {
        const std::string_view token = tokens[i % std::size(tokens)];
        event("response.output_text.delta", item + R"(,"content_index":0,"delta":")" + std::string(token) +
                                                R"(","logprobs":[],"obfuscation":")" + pads[i % std::size(pads)] + "\"");
        s.text_bytes += unescaped(token);
    }
    event("response.output_text.done", item + R"(,"content_index":0,"text":"","logprobs":[])");
    event("response.completed",
          R"("response":{"id":"resp_67c9fdcecf488190bdd9a0409de3a1ec07b8b0ad4e5eb654","object":"response",)"
          R"("created_at":1741290958,"status":"completed","model":"gpt-4.1-2025-04-14","output":[],)"
          R"("usage":{"input_tokens":19,"input_tokens_details":{"cached_tokens":0},"output_tokens":40000,)"
          R"("output_tokens_details":{"reasoning_tokens":0},"total_tokens":40019}})");
    return s;
}

// The chat stream's answer: one delta per chunk but the first and the two last, and [DONE].
const recorded_stream& responses_stream() {
    static const recorded_stream s = make_responses_stream(stream().events - 4);
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
        s.text_bytes += unescaped(token);
    }
    s.bytes += head + R"({},"logprobs":null,"finish_reason":"stop"}],"usage":null})" "\n\n";
    s.bytes += "data: [DONE]\n\n";
    s.events = deltas + 3;
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
        if (updates != s.events - 1 || text_bytes != s.text_bytes || !parser.done()) {
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
        if (text_bytes != s.text_bytes) {
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
        if (r.messages.size() != 1 || r.messages[0].text().size() != s.text_bytes || !r.usage) {
            state.SkipWithError("the stream did not merge into the expected response");
            break;
        }
        benchmark::DoNotOptimize(r);
    }
    report(state, s);
}

// The Responses API's event stream of the same answer, parsed and mapped: compared with
// sse_parse_and_map/typed, the cost of the richer events per delta.
void responses_parse_and_map(benchmark::State& state) {
    const recorded_stream& s = responses_stream();
    const std::size_t read_size = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        forma::openai::responses_stream_parser parser;
        const std::size_t text_bytes = map_text(parser, s, read_size);
        if (text_bytes != s.text_bytes || text_bytes != stream().text_bytes) {
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
        if (text_bytes != s.text_bytes || text_bytes != stream().text_bytes) {
            state.SkipWithError("the tool call did not map to the expected text");
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

BENCHMARK_MAIN();
