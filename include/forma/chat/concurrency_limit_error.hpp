#pragma once

#include <forma/error.hpp>

namespace forma {

/// A request was refused at once: the limiter's queue was full.
class concurrency_limit_error : public error {
public:
    using error::error;
    ~concurrency_limit_error() override;
};

} // namespace forma
