#pragma once
// What a stream cannot match of a whole response: the bodies' raw representations.

#include <forma/model/agent_response.hpp>

#include <variant>

namespace forma_test {

/// `r` without its raw representations but its function calls' (a stream keeps none of the
/// whole body; a call's raw holds its arguments as sent, which both carry).
inline forma::agent_response<> without_raw(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    for (auto& m : r.messages)
        for (auto& c : m.contents)
            if (!std::holds_alternative<forma::function_call_content>(c)) forma::metadata_of(c).raw_representation = nullptr;
    return r;
}

} // namespace forma_test
