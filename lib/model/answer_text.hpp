#pragma once

#include <forma/model/agent_response.hpp>

#include <optional>
#include <string_view>

namespace forma::model_detail {

/// What agent_response::text() returns, without a copy, when it is one text content's (or
/// nothing); nullopt when text() joins several. A server that writes the answer out once needs no
/// string of its own for it.
std::optional<std::string_view> answer_text_view(const agent_response<>& response) noexcept;

} // namespace forma::model_detail
