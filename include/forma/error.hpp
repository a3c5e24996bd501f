#pragma once

#include <stdexcept>
#include <string>

namespace forma {

/** Base of every exception forma throws.

    `what()` reads well on its own: it says what went wrong and, where it
    applies, where (a JSON Pointer, an HTTP status, a provider message).
*/
class error : public std::runtime_error {
public:
    explicit error(const std::string& message);
    explicit error(const char* message);
    ~error() override;
};

} // namespace forma
