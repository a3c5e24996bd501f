#pragma once
// A request whose answer both OpenAI clients read whole: sent, its body parsed by `parse`
// (a function of the body text to agent_response<>), the call's span ended with it.

#include "transport.hpp"

#include <forma/model/agent_response.hpp>

#include <boost/asio/awaitable.hpp>

#include <exception>
#include <memory>
#include <string>

namespace forma::openai::detail {

template <class Parse>
boost::asio::awaitable<agent_response<>> whole_exchange(std::shared_ptr<transport> owner, request_line request,
                                                        std::string body, telemetry::operation_span span, Parse parse) {
    try {
        request.body = body;
        const transport::exchanged_body answer = co_await owner->exchange(request, span);
        agent_response<> response = parse(std::string_view(answer.text));
        attach_rate_limits(response.additional_properties, answer.limits);
        span.end(response);
        co_return response;
    } catch (...) {
        span.fail(std::current_exception());
        throw;
    }
}

} // namespace forma::openai::detail
