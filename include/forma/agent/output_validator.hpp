#pragma once

#include <forma/model/response_format.hpp>
#include <forma/json/detail/wrapped_reading.hpp>
#include <forma/json/from_json.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/content.hpp>
#include <forma/model/response_format.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forma {
namespace agent_detail {

/// The T a run<T>'s validator read from the last answer it passed, with that answer's text.
template <class T>
class kept_answer {
public:
    void keep(std::string_view text, T value) {
        std::lock_guard lock(mutex_);
        text_.assign(text);
        value_ = std::move(value);
    }
    /// The T read from the answer of `response`, when that is the last answer passed; taken once.
    std::optional<T> take(const agent_response<>& response) {
        std::string_view text;
        std::string storage;
        if (model_detail::structured_output_text(response, text, storage)) return std::nullopt;
        std::lock_guard lock(mutex_);
        if (!value_ || text != text_) return std::nullopt;
        return std::exchange(value_, std::nullopt);
    }

private:
    std::mutex mutex_; // a run's participants may check answers on several threads
    std::string text_;
    std::optional<T> value_;
};

} // namespace agent_detail

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
            T value{};
            return errors_reading(answer, value);
        }));
        return validator;
    }

    /** for_type<T>() for one run<T>: the T read from the last answer it passes is kept in
        `kept`, so that run<T> does not read the answer a second time.
    */
    template <class T>
    static output_validator keeping(std::shared_ptr<agent_detail::kept_answer<T>>& kept) {
        struct keeping_check {
            agent_detail::kept_answer<T> kept;
            check_function check;
        };
        auto shared = std::make_shared<keeping_check>();
        shared->check = [answers = &shared->kept](std::string_view answer) { // a pointer: no allocation
            T value{};
            std::vector<output_error> errors = errors_reading(answer, value);
            if (errors.empty()) answers->keep(answer, std::move(value));
            return errors;
        };
        kept = std::shared_ptr<agent_detail::kept_answer<T>>(shared, &shared->kept);
        return output_validator(std::shared_ptr<const check_function>(shared, &shared->check));
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
    explicit output_validator(std::shared_ptr<const check_function> check) : check_(std::move(check)) {}

    // The errors of reading `answer` as run<T> reads it; `value` is the T when there are none.
    template <class T>
    static std::vector<output_error> errors_reading(std::string_view answer, T& value) {
        return to_output_errors(response_format::wraps<T>()
                                    ? json_detail::read_wrapped_listing_errors(answer, value, {}, error_limit)
                                    : json_detail::read_listing_errors(answer, value, {}, error_limit));
    }

    static constexpr std::size_t error_limit = 20; // as from_json_errors: enough for a model to act on

    std::shared_ptr<const check_function> check_;
};

} // namespace forma
