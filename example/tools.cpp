// Tools: the model calls C++ functions; one of them books a hotel and waits for your approval;
// the final answer is a typed struct.
//
// Runs against the OpenAI-compatible service when OPENAI_API_KEY or OPENAI_BASE_URL is set, and
// otherwise against forma's local model server, which calls both tools at once with arguments
// made from their schemas, then answers in the response format.
#include "example_support.hpp"

#include <forma/forma.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/describe.hpp>
#include <boost/json/serialize.hpp>

#include <iostream>
#include <string>
#include <vector>

struct weather_query {
    std::string city;
};
BOOST_DESCRIBE_STRUCT(weather_query, (), (city))
FORMA_DESCRIBE_FIELDS(weather_query, (city, .description = "The city to forecast", .min_length = 1));

struct forecast {
    std::string city;
    int celsius = 0;
    std::string sky;
};
BOOST_DESCRIBE_STRUCT(forecast, (), (city, celsius, sky))

struct booking_request {
    std::string city;
    std::string hotel;
    int nights = 1;
};
BOOST_DESCRIBE_STRUCT(booking_request, (), (city, hotel, nights))
FORMA_DESCRIBE_FIELDS(booking_request, (hotel, .description = "Hotel name"), (nights, .minimum = 1, .maximum = 14));

// The typed answer the agent ends with.
struct trip_plan {
    std::string city;
    std::string advice;
};
BOOST_DESCRIBE_STRUCT(trip_plan, (), (city, advice))
FORMA_DESCRIBE_FIELDS(trip_plan, (advice, .description = "What to pack and do, given the weather"));

// A tool may be a coroutine: this one waits as a real lookup would, without blocking the thread.
boost::asio::awaitable<forecast> look_up_weather(const weather_query& query) {
    boost::asio::steady_timer lookup(co_await boost::asio::this_coro::executor, std::chrono::milliseconds(20));
    co_await lookup.async_wait(boost::asio::use_awaitable);
    co_return forecast{query.city, 4, "light snow"};
}

std::string book_hotel(const booking_request& request) {
    return "confirmed: " + std::to_string(request.nights) + " nights at " + request.hotel + ", " + request.city;
}

boost::asio::awaitable<void> plan_trip(forma::chat_client& model) {
    forma::function_tool weather = forma::make_tool("get_weather", "The weather forecast for a city", look_up_weather);
    forma::function_tool hotel = forma::make_tool("book_hotel", "Books a hotel room", book_hotel,
                                                  {.requires_approval = true, .timeout = std::chrono::seconds(10)});
    forma::chat_client_agent agent(model, {.name = "travel_agent",
                                           .instructions = "Plan the trip: check the weather and book the hotel.",
                                           .tools = {weather, hotel}});
    auto session = agent.create_session();

    forma::agent_response<trip_plan> response =
        co_await agent.run<trip_plan>("Two nights in Oslo at the Grand Hotel, please.", session);
    example::show_tool_activity(response);
    // A run that wants to book stops and asks; the answers go into the next run on the session.
    while (!response.approval_requests().empty()) {
        std::vector<forma::content> answers;
        for (const forma::function_approval_request_content& request : response.approval_requests()) {
            std::cout << "approve " << request.call.name << ' ' << boost::json::serialize(request.call.arguments)
                      << "? yes\n";
            answers.push_back(request.approve()); // or request.reject("why not")
        }
        response = co_await agent.run<trip_plan>(forma::chat_message(forma::chat_role::user(), std::move(answers)),
                                                 session);
        example::show_tool_activity(response);
    }
    const trip_plan& plan = response.result();
    std::cout << "city:   " << plan.city << '\n' << "advice: " << plan.advice << '\n';
}

int main() {
    try {
        boost::asio::io_context io;
        // Locally: both tools in one turn, so that the booking asks for approval.
        example::model model(io, {.tool_calls_per_turn = 2});
        example::run(io, plan_trip(model.client()));
        return 0;
    } catch (const forma::tool_error& e) {
        std::cerr << "The tool loop stopped: " << e.what() << '\n';
    } catch (const std::exception& e) {
        std::cerr << "Failed: " << e.what() << '\n';
    }
    return 1;
}
