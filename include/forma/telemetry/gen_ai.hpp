#pragma once
// Names from the OpenTelemetry semantic conventions for generative AI that forma records.

#include <forma/telemetry/metric_data.hpp>

#include <array>
#include <string_view>

namespace forma::telemetry::gen_ai {

namespace attr {
inline constexpr std::string_view operation_name = "gen_ai.operation.name";
inline constexpr std::string_view provider_name = "gen_ai.provider.name";
inline constexpr std::string_view agent_id = "gen_ai.agent.id";
inline constexpr std::string_view agent_name = "gen_ai.agent.name";
inline constexpr std::string_view agent_description = "gen_ai.agent.description";
inline constexpr std::string_view conversation_id = "gen_ai.conversation.id";
inline constexpr std::string_view request_model = "gen_ai.request.model";
inline constexpr std::string_view request_temperature = "gen_ai.request.temperature";
inline constexpr std::string_view request_top_p = "gen_ai.request.top_p";
inline constexpr std::string_view request_max_tokens = "gen_ai.request.max_tokens";
inline constexpr std::string_view request_seed = "gen_ai.request.seed";
inline constexpr std::string_view request_stop_sequences = "gen_ai.request.stop_sequences";
inline constexpr std::string_view request_stream = "gen_ai.request.stream";
inline constexpr std::string_view output_type = "gen_ai.output.type";
inline constexpr std::string_view response_id = "gen_ai.response.id";
inline constexpr std::string_view response_model = "gen_ai.response.model";
inline constexpr std::string_view response_finish_reasons = "gen_ai.response.finish_reasons";
inline constexpr std::string_view response_time_to_first_chunk = "gen_ai.response.time_to_first_chunk";
inline constexpr std::string_view usage_input_tokens = "gen_ai.usage.input_tokens";
inline constexpr std::string_view usage_output_tokens = "gen_ai.usage.output_tokens";
/// Input tokens served from the provider's prompt cache (part of usage_input_tokens).
inline constexpr std::string_view usage_cache_read_input_tokens = "gen_ai.usage.cache_read.input_tokens";
/// Input tokens written to the provider's prompt cache (part of usage_input_tokens).
inline constexpr std::string_view usage_cache_creation_input_tokens = "gen_ai.usage.cache_creation.input_tokens";
inline constexpr std::string_view input_messages = "gen_ai.input.messages";
inline constexpr std::string_view output_messages = "gen_ai.output.messages";
inline constexpr std::string_view system_instructions = "gen_ai.system_instructions";
inline constexpr std::string_view token_type = "gen_ai.token.type";
inline constexpr std::string_view tool_name = "gen_ai.tool.name";
inline constexpr std::string_view tool_call_id = "gen_ai.tool.call.id";
inline constexpr std::string_view tool_type = "gen_ai.tool.type";
inline constexpr std::string_view tool_description = "gen_ai.tool.description";
inline constexpr std::string_view tool_call_arguments = "gen_ai.tool.call.arguments";
inline constexpr std::string_view tool_call_result = "gen_ai.tool.call.result";
inline constexpr std::string_view server_address = "server.address";
inline constexpr std::string_view server_port = "server.port";
inline constexpr std::string_view error_type = "error.type";
} // namespace attr

namespace operation {
inline constexpr std::string_view invoke_agent = "invoke_agent";
inline constexpr std::string_view chat = "chat";
inline constexpr std::string_view execute_tool = "execute_tool";
} // namespace operation

/// The advised bucket boundaries of the duration metrics (seconds).
inline constexpr std::array<double, 14> duration_buckets{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64,
                                                         1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
/// The advised bucket boundaries of gen_ai.client.token.usage.
inline constexpr std::array<double, 14> token_buckets{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536,
                                                      262144, 1048576, 4194304, 16777216, 67108864};

inline constexpr histogram_instrument operation_duration{"gen_ai.client.operation.duration", "s",
                                                         "GenAI operation duration.", duration_buckets};
inline constexpr histogram_instrument token_usage{"gen_ai.client.token.usage", "{token}",
                                                  "Number of input and output tokens used.", token_buckets};
inline constexpr histogram_instrument time_to_first_chunk{
    "gen_ai.client.operation.time_to_first_chunk", "s",
    "Time to receive the first chunk of a streaming response.", duration_buckets};

} // namespace forma::telemetry::gen_ai
