#pragma once

#include <forma/agent/agent.hpp>

#include <memory>

namespace forma {

/** An agent that forwards everything to an inner agent: the base of decorators,
    which override the parts they change (run_core, run_streaming_core, ...) and pass the
    run on with delegating_agent::run_core.
*/
class delegating_agent : public agent {
public:
    /// @throws error for a null inner agent.
    explicit delegating_agent(std::shared_ptr<agent> inner);

    executor_type get_executor() const override { return inner_->get_executor(); }
    std::string_view id() const noexcept override { return inner_->id(); }
    std::string_view name() const noexcept override { return inner_->name(); }
    std::string_view description() const noexcept override { return inner_->description(); }
    std::shared_ptr<agent_session> create_session() const override { return inner_->create_session(); }
    boost::asio::awaitable<std::shared_ptr<agent_session>> open_session(session_id id) override {
        return inner_->open_session(std::move(id));
    }
    provider_metadata provider() const override { return inner_->provider(); }
    std::size_t max_output_retries(const agent_run_options& run_options) const override {
        return inner_->max_output_retries(run_options);
    }
    forma::chat_options effective_chat_options(const agent_run_options& run_options) const override {
        return inner_->effective_chat_options(run_options);
    }

    const std::shared_ptr<agent>& inner() const noexcept { return inner_; }

protected:
    /// Passes the run to the inner agent.
    boost::asio::awaitable<agent_response<>> run_core(agent_run run) override;
    update_stream run_streaming_core(agent_run run) override;

private:
    std::shared_ptr<agent> inner_;
};

} // namespace forma
