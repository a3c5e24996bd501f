// The Anthropic mapping: a Message body, an error body and a Messages event stream, from
// arbitrary bytes. Only typed errors may escape; a response merged from the stream's updates
// must merge back to itself from its own to_updates().
//
// Input: a config byte (the SSE limit, the answer tool, the builder's copying), a byte seeding
// the piece sizes, then the bytes, read both as a whole body and as an event stream.
#include "fuzz_support.hpp"

#include <forma/anthropic/response_parser.hpp>
#include <forma/anthropic/stream_parser.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t config = data[0];
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 2, size - 2);
    forma_fuzz::only_typed_errors([&] {
        const forma::agent_response<> r = forma::anthropic::parse_message(bytes);
        (void)r.text();
        (void)boost::json::serialize(boost::json::value_from(r));
        (void)r.to_updates();
    });
    forma_fuzz::only_typed_errors([&] { (void)forma::anthropic::parse_error(400 + (config & 7), bytes).what(); });

    forma::anthropic::stream_parser_options options;
    if (config & 8) options.sse.max_event_size = 64;
    if (config & 16) options.answer_tool = "final_result";
    forma::anthropic::stream_parser parser(options);
    forma_fuzz::merge_stream(parser, bytes, (config & 32) != 0, data[1]);
    return 0;
}
