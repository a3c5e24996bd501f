#pragma once

#include <forma/agent/structured_format.hpp>
#include <forma/json/detail/wrapped_reading.hpp>
#include <forma/json/from_json.hpp>
#include <forma/model/content.hpp>
#include <forma/model/response_format.hpp>

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace forma {

/** Checks the text of a structured answer and lists everything wrong with it: what
    a validation retry sends back to the model (see `max_output_retries`).

    run<T> and run_streaming<T> set for_type<T>() in the run's options; a run with a
    JSON response format and no validator of its own is checked by for_format().
    Copies share the check; validators compare equal when they share it. An empty
    validator checks nothing.
*/
class output_validator {
public:
    using check_function = std::function<std::vector<output_error>(std::string_view answer)>;

    output_validator() = default;
    explicit output_validator(check_function check)
        : check_(check ? std::make_shared<const check_function>(std::move(check)) : nullptr) {}

    /** The errors of reading the answer as a T (from_json_errors: wrong types, missing
        members, FORMA_DESCRIBE_FIELDS constraints), inside `{"data": ...}` when run<T>
        wraps T. Built once per T.
    */
    template <class T>
    static const output_validator& for_type() {
        static const output_validator validator(check_function([](std::string_view answer) {
            return to_output_errors(structured_format_wraps<T>() ? json_detail::wrapped_errors<T>(answer, {})
                                                                 : from_json_errors<T>(answer));
        }));
        return validator;
    }

    /** For a format with no C++ type: JSON Schema formats check the answer with a
        schema_validator (every violation; a schema it cannot compile checks only that
        the answer is JSON), `json` checks that it is JSON, `text` checks nothing.
    */
    static output_validator for_format(const response_format& format);

    /// Everything wrong with `answer`, in document order; empty when it is right.
    std::vector<output_error> check(std::string_view answer) const {
        return check_ ? (*check_)(answer) : std::vector<output_error>{};
    }

    explicit operator bool() const noexcept { return check_ != nullptr; }

    friend bool operator==(const output_validator& a, const output_validator& b) noexcept {
        return a.check_ == b.check_;
    }

    /// The reader's errors as output errors.
    static std::vector<output_error> to_output_errors(const std::vector<json_error>& errors);

private:
    std::shared_ptr<const check_function> check_;
};

} // namespace forma
