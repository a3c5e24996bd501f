// The OpenAI mapping: a chat.completion body and a stream of chunks, and the Responses
// API's Response body and event stream, from arbitrary bytes. Only typed errors may
// escape; a streamed response merged from the updates must merge back to itself from
// its own to_updates().
//
// Input: a config byte (HTTP status, SSE limit, raw chunks kept), a byte seeding the
// piece sizes, then the bytes, read both as a whole body and as an event stream.
#include "fuzz_support.hpp"

#include <forma/openai/response_parser.hpp>
#include <forma/openai/responses_parser.hpp>
#include <forma/openai/stream_parser.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <string_view>

namespace {

constexpr int statuses[] = {200, 201, 400, 401, 429, 500, 503, 302};

void read_whole_body(std::string_view body, int status) {
    forma_fuzz::only_typed_errors([&] {
        const forma::agent_response<> r = forma::openai::parse_response(body, status);
        (void)r.text();
        (void)boost::json::serialize(boost::json::value_from(r));
        (void)r.to_updates();
    });
    forma_fuzz::only_typed_errors([&] { (void)forma::openai::parse_error(status, body).what(); });
}

void read_responses_body(std::string_view body, int status) {
    forma_fuzz::only_typed_errors([&] {
        const forma::agent_response<> r = forma::openai::parse_responses_response(body, status);
        (void)r.text();
        (void)boost::json::serialize(boost::json::value_from(r));
        if (r.continuation_token) (void)forma::openai::responses_token::from(*r.continuation_token);
    });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t config = data[0];
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
    read_whole_body(bytes, statuses[config & 7]);
    read_responses_body(bytes, statuses[config & 7]);
    forma::openai::stream_parser_options options;
    if (config & 8) options.sse.max_event_size = 64;
    options.keep_raw_chunks = (config & 16) != 0;
    forma::openai::stream_parser chat(options);
    forma_fuzz::merge_stream(chat, bytes, (config & 32) != 0, data[1]);
    forma::openai::responses_stream_parser responses({.sse = options.sse});
    forma_fuzz::merge_stream(responses, bytes, (config & 32) != 0, data[1]);
    return 0;
}
