#pragma once
// A request body the serving endpoints cannot serve, as their readers report it.

#include <string>

namespace forma::serving::detail {

/// The member at fault (OpenAI's `param`, AG-UI's field) and why: a 400 in the protocol's shape.
struct request_error {
    std::string param;
    std::string message;
};

} // namespace forma::serving::detail
