#pragma once

#include <forma/error.hpp>

#include <string>

namespace forma {

/// The model declined to answer in the requested format; refusal() is its explanation.
class refusal_error : public error {
public:
    explicit refusal_error(std::string refusal);
    ~refusal_error() override;
    const std::string& refusal() const noexcept { return refusal_; }

private:
    std::string refusal_;
};

} // namespace forma
