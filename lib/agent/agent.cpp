#include <forma/agent/agent.hpp>

#include <forma/error.hpp>

#include "../json/json_text.hpp"
#include "../text/random_hex.hpp"

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace forma {

agent::~agent() = default;

std::string make_unique_id(std::string_view prefix) { return text_detail::random_hex_id(prefix); }

forma::chat_options agent::effective_chat_options(const agent_run_options& run_options) const {
    forma::chat_options out = run_options.chat_options.value_or(forma::chat_options{});
    if (run_options.response_format) out.response_format = run_options.response_format;
    if (run_options.structured_output_mode) out.structured_output_mode = run_options.structured_output_mode;
    return out;
}

std::shared_ptr<agent_session> agent::create_session() const {
    return std::make_shared<agent_session>(session_id(make_unique_id()));
}

boost::asio::awaitable<std::shared_ptr<agent_session>> agent::open_session(session_id id) {
    throw error("the agent \"" + json_detail::valid_utf8(name()) + "\" keeps no sessions by id, so it cannot run session \"" +
                json_detail::valid_utf8(id.str()) +
                "\": give it a session_store (stored_agent, or agent_builder::use_session_store), or pass the "
                "agent_session itself");
    co_return nullptr;
}

namespace {

boost::asio::awaitable<agent_response<>> rethrown(std::exception_ptr failure) {
    std::rethrow_exception(failure);
    co_return agent_response<>{};
}

} // namespace

// Not a coroutine: a run in a session at hand is run_core's own coroutine, with no frame of this
// call's around it. What fails before run_core is called fails when the run is awaited, as a
// coroutine's would.
boost::asio::awaitable<agent_response<>> agent::run(agent_input input, session_ref session, agent_run_options options) {
    try {
        if (const session_id* id = session.stored()) {
            // A coroutine without captures: its frame holds the run and the id, not this call's locals.
            return [](agent& self, agent_run run, session_id id) -> boost::asio::awaitable<agent_response<>> {
                run.session = co_await self.open_session(std::move(id));
                co_return co_await self.run_core(std::move(run));
            }(*this, agent_run{std::move(input).messages(), nullptr, std::move(options)}, *id);
        }
        const std::shared_ptr<agent_session>* held = session.held();
        std::shared_ptr<agent_session> run_session = held && *held ? *held : create_session();
        // The run made as run_core's argument: one move of the options fewer than a local's.
        return run_core(agent_run{std::move(input).messages(), std::move(run_session), std::move(options)});
    } catch (...) {
        return rethrown(std::current_exception());
    }
}

/// Opens a stored session at the first next(), then streams the run in it.
class agent::opening_stream final : public update_source {
public:
    opening_stream(agent& owner, session_id id, agent_run run) : owner_(owner), id_(std::move(id)), run_(std::move(run)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        if (!inner_) {
            run_.session = co_await owner_.open_session(std::move(id_));
            inner_.emplace(owner_.run_streaming_core(std::move(run_)));
        }
        co_return co_await inner_->next();
    }

private:
    agent& owner_;
    session_id id_;
    agent_run run_;
    std::optional<update_stream> inner_;
};

update_stream agent::run_streaming(agent_input input, session_ref session, agent_run_options options) {
    if (const session_id* id = session.stored())
        return update_stream(get_executor(), std::make_unique<opening_stream>(
                                                 *this, *id, agent_run{std::move(input).messages(), nullptr, std::move(options)}));
    const std::shared_ptr<agent_session>* held = session.held();
    std::shared_ptr<agent_session> run_session = held && *held ? *held : create_session();
    return run_streaming_core(agent_run{std::move(input).messages(), std::move(run_session), std::move(options)});
}

} // namespace forma
