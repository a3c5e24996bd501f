#pragma once

#include <forma/model/agent_response.hpp>
#include <forma/model/answer_error.hpp>
#include <forma/model/detail/structured_reading.hpp>

#include <boost/system/result.hpp>

#include <concepts>
#include <optional>
#include <utility>

namespace forma {

/** The response of `agent.run<T>()`: everything an agent_response<> has, and the
    answer read as a T.

    result() reads the last assistant message that has text (not all text joined:
    text between tool calls would break the JSON), once; later calls return the
    same value. A root that run<T> wrapped as `{"data": ...}` is unwrapped (and
    text without "data" is read as a T directly). Change `messages` and the
    cached result does not follow.
*/
template <class T>
class agent_response : public agent_response<> {
public:
    agent_response() = default;
    /// `wrapped`: whether the request wrapped T's schema as `{"data": ...}`.
    agent_response(agent_response<> response, bool wrapped)
        : agent_response<>(std::move(response)), wrapped_(wrapped) {}
    /// A response whose answer was already read as `result` (by a validator or while it
    /// streamed): result() returns it without reading the text again.
    agent_response(agent_response<> response, bool wrapped, T result)
        : agent_response<>(std::move(response)), wrapped_(wrapped), read_(std::move(result)) {}

    /** The answer as a T.
        @throws refusal_error when the model refused (its text is in refusal());
        @throws output_truncated_error when the token limit cut the answer;
        @throws json_error when there is no text, the text is `null`, is not JSON,
                or does not match T (path() says where).
    */
    const T& result() const {
        const auto& read = read_once();
        if (!read) read.error().rethrow();
        return *read;
    }

    /// result() without throwing: a copy of the value, or the error result() would throw as a value.
    boost::system::result<T, answer_error> try_result() const& requires std::copy_constructible<T> { return read_once(); }
    /// The same from a response that is not kept (`std::move(response).try_result()`, or the
    /// awaited run's): the value is moved out, so T need not be copyable.
    boost::system::result<T, answer_error> try_result() && {
        read_once();
        return std::move(*read_);
    }

    bool is_wrapped() const noexcept { return wrapped_; }

private:
    const boost::system::result<T, answer_error>& read_once() const {
        const agent_response<>& response = *this;
        if (!read_) read_.emplace(model_detail::read_structured<T>(response, wrapped_, {}));
        return *read_;
    }

    bool wrapped_ = false;
    mutable std::optional<boost::system::result<T, answer_error>> read_;
};

} // namespace forma
