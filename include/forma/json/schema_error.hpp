#pragma once

#include <forma/error.hpp>

namespace forma {

/// A schema that is invalid or cannot be used: bad schema text, an invalid
/// `pattern`, a name that does not match `^[A-Za-z0-9_-]{1,64}$`.
class schema_error : public error {
public:
    using error::error;
    ~schema_error() override;
};

} // namespace forma
