#pragma once

#include <forma/error.hpp>

#include <string>

namespace forma {

/// The answer was cut by the output token limit (finish reason "length"), so it is
/// incomplete; partial_text() is what arrived. Raise the limit or shorten the task.
class output_truncated_error : public error {
public:
    explicit output_truncated_error(std::string partial_text);
    ~output_truncated_error() override;
    const std::string& partial_text() const noexcept { return partial_text_; }

private:
    std::string partial_text_;
};

} // namespace forma
