#include "output_retry.hpp"

#include "../model/joined_response.hpp"

#include <forma/agent/agent.hpp>
#include <forma/json/json_error.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/detail/structured_reading.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace forma::agent_detail {

output_retry::output_retry(const agent_run_options& run, const chat_options& request, std::size_t default_retries) {
    if (!request.response_format || request.response_format->kind() == response_format_kind::text) return;
    validator_ = run.output_validator ? run.output_validator : output_validator::for_format(*request.response_format);
    retries_left_ = validator_ ? run.max_output_retries.value_or(default_retries) : 0;
}

namespace {

// The errors of the answer's text; none when there is nothing a retry could fix.
std::vector<output_error> errors_of(const agent_response<>& answer, const output_validator& validator) {
    if (answer.continuation_token || !answer.approval_requests().empty()) return {}; // not an answer yet
    // A loop stopped by a tool (a handoff) answers with the tool's result: another agent answers next.
    if (!answer.messages.empty() && answer.messages.back().role == chat_role::tool()) return {};
    std::string_view text;
    std::string storage;
    if (std::optional<answer_error> error = model_detail::structured_output_text(answer, text, storage)) {
        if (const auto* e = std::get_if<json_error>(&error->variant())) return {{e->path(), e->reason()}}; // no text, or `null`
        return {}; // a refusal, or the token limit: asking again will not help
    }
    return validator.check(text);
}

} // namespace

std::optional<chat_message> output_retry::correction_for(const agent_response<>& answer) {
    if (retries_left_ == 0) return std::nullopt;
    std::vector<output_error> errors = errors_of(answer, validator_);
    if (errors.empty()) return std::nullopt;
    --retries_left_;
    chat_message correction;
    correction.role = chat_role::user();
    correction.message_id = make_unique_id();
    correction.contents.emplace_back(output_errors_content(std::move(errors)));
    return correction;
}

namespace {

boost::asio::awaitable<agent_response<>> get_retried_response(chat_client& client, chat_request& request,
                                                              output_retry retry) {
    std::vector<chat_message>& conversation = request.messages;
    // Named, not braced in the co_await: g++ 12 destroys such a temporary twice.
    chat_request first{conversation, request.options, request.context};
    agent_response<> response = co_await client.get_response(std::move(first));
    std::size_t attempt_start = 0; // the current attempt's first message in response.messages
    for (std::optional<chat_message> correction = retry.correction_for(response); correction;) {
        conversation.insert(conversation.end(), response.messages.begin() + static_cast<std::ptrdiff_t>(attempt_start),
                            response.messages.end());
        conversation.push_back(*correction);
        response.messages.push_back(std::move(*correction));
        chat_request again{conversation, request.options, request.context};
        agent_response<> attempt = co_await client.get_response(std::move(again));
        attempt_start = response.messages.size();
        correction = retry.correction_for(attempt);
        model_detail::add_response(response, std::move(attempt));
    }
    co_return response;
}

} // namespace

boost::asio::awaitable<agent_response<>> get_checked_response(chat_client& client, chat_request& request,
                                                              output_retry retry) {
    // Without retries the client's own operation is all there is: no frame of our own.
    if (!retry.may_retry()) return client.get_response(std::move(request));
    return get_retried_response(client, request, std::move(retry));
}

namespace {

class checked_stream final : public update_source {
public:
    checked_stream(chat_client& client, chat_request request, output_retry retry)
        : client_(client), request_(std::move(request)), retry_(std::move(retry)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!attempt_) {
            chat_request attempt{request_.messages, request_.options, request_.context};
            attempt_.emplace(client_.get_streaming_response(std::move(attempt)));
        }
        if (std::optional<agent_response_update> update = co_await attempt_->next()) {
            answer_.add(*update);
            co_return update;
        }
        agent_response<> answer = answer_.take();
        std::optional<chat_message> correction = retry_.correction_for(answer);
        if (!correction) co_return std::nullopt;
        request_.messages.insert(request_.messages.end(), std::make_move_iterator(answer.messages.begin()),
                                 std::make_move_iterator(answer.messages.end()));
        request_.messages.push_back(*correction);
        attempt_.reset(); // the next call starts the next attempt
        agent_response_update update(chat_role::user(), std::move(correction->contents));
        update.message_id = std::move(correction->message_id);
        co_return update;
    }

private:
    chat_client& client_;
    chat_request request_; // its messages grow by each attempt and correction
    output_retry retry_;
    std::optional<update_stream> attempt_;
    agent_response_builder answer_; // the attempt being streamed
};

} // namespace

update_stream get_checked_streaming_response(chat_client& client, chat_request request, output_retry retry) {
    // Without retries the client's own stream is all there is.
    if (!retry.may_retry()) return client.get_streaming_response(std::move(request));
    return update_stream(client.get_executor(),
                         std::make_unique<checked_stream>(client, std::move(request), std::move(retry)));
}

} // namespace forma::agent_detail
