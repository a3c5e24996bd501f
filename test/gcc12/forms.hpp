// The fixture of forms_that_run.cpp: a local model server over TLS on loopback, an OpenAI client
// that trusts its certificate, an agent over it, and a runner that prints "OK <form>" (exit 0) or
// "FAIL <form>: <why>" (exit 1).
#pragma once

#include <forma/agent/chat_client_agent.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/testing/model_server.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct Person {
    std::string name;
    int age = 0;
    std::vector<std::string> skills;
};
BOOST_DESCRIBE_STRUCT(Person, (), (name, age, skills))

namespace forms {

inline constexpr const char* person_prompt = "John Smith is a 35-year-old software engineer.";

struct fixture {
    explicit fixture(boost::asio::any_io_executor executor)
        : server(executor), client(executor, client_options(server)), agent(client, agent_options()) {}

    static forma::openai::client_options client_options(const forma::testing::model_server& s) {
        forma::openai::client_options o;
        o.base_url = s.base_url();
        o.model = "forma-local";
        o.trust.ca_certificates = s.certificate_pem();
        return o;
    }
    static forma::chat_client_agent_options agent_options() {
        forma::chat_client_agent_options o;
        o.name = "forms";
        return o;
    }

    forma::testing::model_server server;
    forma::openai::chat_client client;
    forma::chat_client_agent agent;
};

inline void check(bool ok, const std::string& what) {
    if (!ok)
        throw std::runtime_error("check failed: " + what);
}

/// The server takes the name from a phrase of the prompt (which one depends on the request's seed)
/// and the age from its one number.
inline void check_person(const Person& p) {
    check(!p.name.empty() && std::string_view(person_prompt).find(p.name) != std::string_view::npos,
          "name is \"" + p.name + "\"");
    check(p.age == 35, "age is " + std::to_string(p.age));
}

/// A one-shot event a coroutine can wait for (a timer that never fires; set() cancels it).
class event {
public:
    explicit event(boost::asio::any_io_executor ex) : timer_(ex, std::chrono::steady_clock::time_point::max()) {}
    void set() { set_ = true; timer_.cancel(); }
    boost::asio::awaitable<void> wait() {
        while (!set_) {
            boost::system::error_code ec;
            co_await timer_.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
        }
    }

private:
    bool set_ = false;
    boost::asio::steady_timer timer_;
};

/// Runs `form(f)` on a fresh io_context (60 s watchdog); prints OK or FAIL.
inline int run(const char* name, boost::asio::awaitable<void> (*form)(fixture&)) {
    boost::asio::io_context io;
    fixture f(io.get_executor());
    std::optional<std::string> failure = std::string("did not finish within 60 s");
    boost::asio::steady_timer watchdog(io, std::chrono::seconds(60));
    watchdog.async_wait([&](boost::system::error_code ec) {
        if (!ec)
            io.stop();
    });
    boost::asio::co_spawn(io, form(f), [&](std::exception_ptr e) {
        failure.reset();
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                failure = std::string("exception: ") + x.what();
            }
        }
        watchdog.cancel();
        f.server.stop();
        io.stop();
    });
    io.run();
    if (failure) {
        std::printf("FAIL %s: %s\n", name, failure->c_str());
        return 1;
    }
    std::printf("OK %s\n", name);
    return 0;
}

} // namespace forms
