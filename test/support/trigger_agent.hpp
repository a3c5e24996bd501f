#pragma once
// The agent the server tests (A2A, OpenAI-compatible) serve: it answers by the first word of the user's text,
// like test_agent.mjs does for the client tests, so that each protocol path has a trigger.
//   "hello ..."  -> "Hello! You said: <text>" at once
//   "count"      -> "one ", "two ", "three" streamed
//   "slow <ms>"  -> waits <ms>, then "finished after <ms> ms"
//   "forever"    -> "working" then waits until canceled
//   "ticking"    -> "tick " every 20 ms, for 20 s or until canceled
//   "person"     -> {"name":"Ada","age":36} as text
//   "fail"       -> throws forma::error("failed on purpose")
//   "weather"    -> "Which city?" marked awaits_input; the next message (the city) gets
//                   "Sunny in <city>"
//   otherwise    -> "I do not understand: <text>"

#include <forma/agent/agent.hpp>
#include <forma/error.hpp>
#include <forma/model/awaits_input.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe/class.hpp>

#include <deque>
#include <memory>

namespace forma_test {

/// What "person" answers, as a typed agent's answer.
struct served_person {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(served_person, (), (name, age))

class trigger_agent final : public forma::agent {
public:
    explicit trigger_agent(boost::asio::any_io_executor executor) : executor_(std::move(executor)) {}

    executor_type get_executor() const override { return executor_; }
    std::string_view id() const noexcept override { return "served-agent"; }
    std::string_view name() const noexcept override { return "Served agent"; }
    std::string_view description() const noexcept override { return "Answers by the first word it reads"; }

    int runs = 0;
    /// Runs that ended before they said everything (canceled wherever the cancellation found
    /// them: waiting here, or in whoever reads the updates).
    int canceled() const noexcept { return *canceled_; }

protected:
    boost::asio::awaitable<forma::agent_response<>> run_core(forma::agent_run run) override {
        auto stream = run_streaming_core(std::move(run));
        std::vector<forma::agent_response_update> updates;
        while (auto u = co_await stream.next()) updates.push_back(std::move(*u));
        co_return forma::to_agent_response(updates);
    }

    forma::update_stream run_streaming_core(forma::agent_run run) override {
        ++runs;
        return forma::update_stream(executor_, std::make_unique<source>(executor_, std::move(run), canceled_));
    }

private:
    class source final : public forma::update_source {
    public:
        source(boost::asio::any_io_executor ex, forma::agent_run run, std::shared_ptr<int> canceled)
            : executor_(ex), run_(std::move(run)), canceled_(std::move(canceled)) {}
        ~source() override {
            if (started_ && !ended_) ++*canceled_;
        }

        boost::asio::awaitable<std::optional<forma::agent_response_update>> next() override {
            if (!started_) {
                started_ = true;
                try {
                    co_await script();
                } catch (...) {
                    ended_ = true; // failed, not canceled
                    throw;
                }
            }
            co_await boost::asio::post(executor_, boost::asio::use_awaitable); // like a network stream
            if (pending_.empty()) {
                ended_ = true;
                co_return std::nullopt;
            }
            forma::agent_response_update u = std::move(pending_.front());
            pending_.pop_front();
            if (!u.message_id.empty() && u.message_id == "wait") {
                boost::asio::steady_timer timer(executor_, wait_);
                auto [ec] = co_await timer.async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
                if (ec) throw boost::system::system_error(ec);
                u.message_id.clear();
            }
            co_return u;
        }

    private:
        void say(std::string text, std::chrono::milliseconds wait_before = {}) {
            forma::agent_response_update u(forma::chat_role::assistant(), std::move(text));
            if (wait_before.count() != 0) {
                u.message_id = "wait";
                wait_ = wait_before;
            }
            pending_.push_back(std::move(u));
        }

        boost::asio::awaitable<void> script() {
            std::string text;
            for (const auto& m : run_.messages) text += m.text();
            forma::agent_session& session = *run_.session;
            const bool asked_city = session.state.contains("asked_city");
            for (const auto& m : run_.messages) session.history.push_back(m);
            if (asked_city) {
                session.state.erase("asked_city");
                say("Sunny in " + text);
            } else if (text.starts_with("hello")) {
                say("Hello! You said: " + text);
            } else if (text == "count") {
                say("one ");
                say("two ");
                say("three");
            } else if (text.starts_with("slow ")) {
                const int ms = std::stoi(text.substr(5));
                say("finished after " + std::to_string(ms) + " ms", std::chrono::milliseconds(ms));
            } else if (text == "forever") {
                say("working");
                say("never said", std::chrono::hours(24));
            } else if (text == "ticking") {
                for (int i = 0; i < 1000; ++i) say("tick ", std::chrono::milliseconds(20));
            } else if (text == "person") {
                say(R"({"name":"Ada","age":36})");
            } else if (text == "fail") {
                throw forma::error("failed on purpose");
            } else if (text == "weather") {
                session.state["asked_city"] = true;
                forma::agent_response_update question(forma::chat_role::assistant(), "Which city?");
                question.additional_properties[forma::awaits_input_property] = true;
                pending_.push_back(std::move(question));
            } else {
                say("I do not understand: " + text);
            }
            co_return;
        }

        boost::asio::any_io_executor executor_;
        forma::agent_run run_;
        std::deque<forma::agent_response_update> pending_;
        std::chrono::milliseconds wait_{};
        bool started_ = false;
        bool ended_ = false;
        std::shared_ptr<int> canceled_;
    };

    boost::asio::any_io_executor executor_;
    std::shared_ptr<int> canceled_ = std::make_shared<int>(0);
};

} // namespace forma_test
