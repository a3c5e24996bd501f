#pragma once
// A request body the serving endpoints cannot serve, as their readers report it.

#include <string>
#include <utility>

namespace forma::serving::detail {

/// The member at fault (OpenAI's `param`, AG-UI's field) and why: a 400 in the protocol's shape.
struct request_error {
    std::string param;
    std::string message;
};

/// Throws the request_error of the member `param`.
[[noreturn]] inline void refuse(std::string param, std::string message) {
    throw request_error{std::move(param), std::move(message)};
}

} // namespace forma::serving::detail
