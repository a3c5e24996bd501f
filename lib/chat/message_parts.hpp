#pragma once
// Messages as the GenAI conventions record them (gen_ai.input.messages and the like).

#include <forma/model/chat_message.hpp>
#include <forma/model/finish_reason.hpp>

#include <boost/json/array.hpp>

#include <optional>
#include <string_view>
#include <vector>

namespace forma::telemetry::detail {

/// `[{"type":"text","content":...}]`: gen_ai.system_instructions.
boost::json::array instruction_parts(std::string_view instructions);

/// `[{"role":...,"parts":[...],"name"?:...}]`: gen_ai.input.messages.
boost::json::array message_list(const std::vector<chat_message>& messages);

/// As message_list, each message with the `finish_reason` the conventions require: gen_ai.output.messages.
boost::json::array output_message_list(const std::vector<chat_message>& messages,
                                       const std::optional<finish_reason>& reason);

} // namespace forma::telemetry::detail
