#pragma once

#include <forma/chat/chat_options.hpp>
#include <forma/chat/provider_metadata.hpp>
#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/telemetry/span_data.hpp>
#include <forma/telemetry/trace_parent.hpp>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace forma::telemetry {

/// What is known about a GenAI operation when it starts.
struct operation_info {
    /// gen_ai.operation.name: gen_ai::operation::invoke_agent or chat.
    std::string_view operation_name{};
    /// The span's name, e.g. "invoke_agent assistant" or "chat gpt-4o".
    std::string span_name{};
    provider_metadata provider{};
    /// The options the operation sends: model, sampling, instructions, response format.
    const chat_options* request = nullptr;
    bool streaming = false;
    /// For invoke_agent: the agent and the session.
    std::string_view agent_id{};
    std::string_view agent_name{};
    std::string_view agent_description{};
    std::string_view conversation_id{};
    /// The messages sent; recorded only with sensitive data on.
    const std::vector<chat_message>* input_messages = nullptr;
};

/** One GenAI operation (an agent run, a chat call) recorded as an OpenTelemetry
    span with the GenAI attributes, and as the client metrics: operation
    duration, token usage, and time to first chunk for streams.

    For writers of agents and chat clients: start one when the operation starts,
    hand `child()` to what it calls, and end it with the response, the stream's
    end or the error. An operation_span never throws into the operation it
    records: failures of the exporter are swallowed. A span destroyed before it
    ended (a stream its reader left) ends with what it saw.
*/
class operation_span {
public:
    /// Nothing is recorded when `parent.exporter` is null.
    operation_span(trace_parent parent, operation_info info) noexcept;
    ~operation_span();

    operation_span(operation_span&& other) noexcept;
    operation_span& operator=(operation_span&&) = delete;

    bool recording() const noexcept { return state_ != nullptr; }
    /// This span's context (invalid when not recording).
    span_context context() const noexcept;
    /// What a call made by this operation gets as its parent.
    trace_parent child() const;

    /// A streamed update arrived: the first one sets the time to first chunk.
    void add_update(const agent_response_update& update) noexcept;
    /// Ends with a complete response.
    void end(const agent_response<>& response) noexcept;
    /// Ends a stream with what its updates said.
    void end() noexcept;
    /// Ends with an error: status ERROR, error.type from the exception.
    void fail(std::exception_ptr error) noexcept;

private:
    struct state;
    std::unique_ptr<state> state_;
};

/** The error.type of an exception: the HTTP status of an http_error ("429"),
    the kind of a transport_error ("timeout"), "cancelled" for an aborted
    operation, else the exception's type name ("forma::json_error").
*/
std::string error_type(std::exception_ptr error);

} // namespace forma::telemetry
