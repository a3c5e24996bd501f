// Without coroutines: every forma operation also has an async_ form that takes any Asio
// completion token. Here a plain lambda receives the typed answer, for code built around
// callbacks (or use_future, or deferred).
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <chrono>
#include <exception>
#include <iostream>
#include <string>

struct weather {
    std::string city;
    double temperature_celsius = 0;
    bool raining = false;
};
BOOST_DESCRIBE_STRUCT(weather, (), (city, temperature_celsius, raining))
FORMA_DESCRIBE_FIELDS(weather, (temperature_celsius, .minimum = -90, .maximum = 60));

/// What went wrong, from an error handed over as an exception_ptr.
std::string message_of(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const std::exception& e) {
        return e.what(); // forma's errors read well on their own
    } catch (...) {
        return "unknown error";
    }
}

int main() {
    try {
        boost::asio::io_context io;
        example::model model(io);
        forma::chat_client_agent agent(model.client(), {.name = "reporter",
                                                        .instructions = "Extract the weather report."});

        bool answered = false;
        bool succeeded = false;
        agent.async_run<weather>(
            "It is 14 degrees and raining in Oslo this morning.",
            [&](std::exception_ptr error, forma::agent_response<weather> response) {
                answered = true;
                io.stop(); // the local model server would keep io.run() going
                if (error) { // the call failed: http_error, transport_error, ...
                    std::cerr << "The call failed: " << message_of(error) << '\n';
                    return;
                }
                // try_result(): an answer that is not a weather is an error value (a json_error,
                // refusal_error or output_truncated_error), not an exception.
                auto result = response.try_result();
                if (!result) {
                    std::cerr << "The answer is not a weather report: " << result.error().what() << '\n';
                    return;
                }
                std::cout << "city: " << result->city << '\n'
                          << "temperature_celsius: " << result->temperature_celsius << '\n'
                          << "raining: " << (result->raining ? "yes" : "no") << '\n';
                succeeded = true;
            });

        io.run_for(std::chrono::seconds(60)); // bounded, so that it never hangs
        if (!answered) std::cerr << "No answer within 60 s\n";
        return succeeded ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
        return 1;
    }
}
