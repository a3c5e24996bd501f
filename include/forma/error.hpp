#pragma once

#include <stdexcept>
#include <string>

namespace forma {

/** Base of every exception forma throws.

    `what()` reads well on its own: it says what went wrong and, where it
    applies, where (a JSON Pointer, an HTTP status, a provider message).
    It never holds a registered secret (see registered_secret): the message,
    like every field a derived error keeps, is redacted when constructed.
*/
class error : public std::runtime_error {
public:
    explicit error(const std::string& message);
    explicit error(const char* message);
    ~error() override;
};

} // namespace forma
