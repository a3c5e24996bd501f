#pragma once

#include <forma/chat/chat_client.hpp>
#include <forma/agent/delegating_agent.hpp>

#include <cstddef>
#include <string>

namespace forma {

/** Gives any agent structured output: runs the inner agent as usual (as text),
    then asks a chat client to convert the inner answer into the requested
    format (from run<T>, the run options, or its own default).

    The returned response carries the converted answer; original_response() on
    it is the inner agent's. A run that requests no JSON format passes through.
*/
class structured_output_agent : public delegating_agent {
public:
    /// The system prompt of the conversion request, unless options say otherwise.
    static constexpr std::string_view default_instructions =
        "Convert the text the user gives you into JSON that matches the requested schema. "
        "Use only information in the text; use null for what it does not say.";

    struct options {
        std::string instructions{default_instructions};
        /// Used when a run requests no format of its own.
        std::optional<forma::response_format> response_format;
        /// Model and sampling options for the conversion request.
        forma::chat_options chat_options;
        /// Validation retries of the conversion, unless a run's options say otherwise
        /// (as chat_client_agent_options::max_output_retries).
        std::size_t max_output_retries = 1;
    };

    structured_output_agent(std::shared_ptr<agent> inner, chat_client& client);
    structured_output_agent(std::shared_ptr<agent> inner, chat_client& client, options opts);

    std::size_t max_output_retries(const agent_run_options& run_options) const override {
        return run_options.max_output_retries.value_or(options_.max_output_retries);
    }

protected:
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    update_stream run_streaming_core(agent_run run) override;

private:
    chat_client& client_;
    options options_;
};

} // namespace forma
