#pragma once

#include <forma/model/agent_response.hpp>

#include <string_view>

namespace forma {

/** The additional property (`true`) of a response whose answer is a question its agent waits to
    have answered, as an A2A task in `input-required` is: the next run on the same session
    answers it. An orchestration pauses on it as it pauses on approval requests.
*/
inline constexpr std::string_view awaits_input_property = "forma.awaits_input";

/// Whether `response` is a question its agent waits to have answered (awaits_input_property).
inline bool awaits_input(const agent_response<>& response) noexcept {
    const boost::json::value* marked = response.additional_properties.if_contains(awaits_input_property);
    return marked && marked->is_bool() && marked->get_bool();
}

} // namespace forma
