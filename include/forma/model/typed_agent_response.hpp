#pragma once

#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/detail/structured_reading.hpp>
#include <forma/model/refusal_error.hpp>

#include <boost/system/result.hpp>

#include <exception>
#include <optional>
#include <string_view>

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

    /** The answer as a T.
        @throws refusal_error when the model refused (its text is in refusal());
        @throws output_truncated_error when the token limit cut the answer;
        @throws json_error when there is no text, the text is `null`, is not JSON,
                or does not match T (path() says where).
    */
    const T& result() const {
        parse_once();
        if (error_) std::rethrow_exception(error_);
        return *value_;
    }

    /// result() without throwing: a copy of the value, or the error result() would throw.
    boost::system::result<T, std::exception_ptr> try_result() const {
        parse_once();
        if (error_) return error_;
        return *value_;
    }

    bool is_wrapped() const noexcept { return wrapped_; }

private:
    template <class>
    friend class structured_update_stream;

    /// A response whose result was read while it streamed.
    agent_response(agent_response<> response, bool wrapped, T value)
        : agent_response<>(std::move(response)), wrapped_(wrapped), parsed_(true), value_(std::move(value)) {}

    void parse_once() const {
        if (parsed_) return;
        parsed_ = true;
        auto r = model_detail::read_structured<T>(static_cast<const agent_response<>&>(*this), wrapped_, {});
        if (r) value_.emplace(std::move(*r));
        else error_ = r.error();
    }

    bool wrapped_ = false;
    mutable bool parsed_ = false;
    mutable std::optional<T> value_;
    mutable std::exception_ptr error_;
};

} // namespace forma
