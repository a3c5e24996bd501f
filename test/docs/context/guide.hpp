// What the guide's statement blocks take as given, with the types its text gives them.
#pragma once

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <memory>
#include <string>
#include <vector>

struct Person {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(Person, (), (name, age))

struct trip_plan {
    std::vector<std::string> days;
};
BOOST_DESCRIBE_STRUCT(trip_plan, (), (days))

struct refund {
    std::string order;
    double amount = 0;
};
BOOST_DESCRIBE_STRUCT(refund, (), (order, amount))

struct review {
    int score = 0;
};
BOOST_DESCRIBE_STRUCT(review, (), (score))

struct verdict {
    double average = 0;
};
BOOST_DESCRIBE_STRUCT(verdict, (), (average))

double average_score(const std::vector<review>& reviews);

extern boost::asio::io_context io;
extern boost::asio::any_io_executor executor;
extern forma::chat_client& client;
extern std::shared_ptr<forma::chat_client> model;
extern forma::agent& agent;
extern forma::agent& researcher;
extern std::shared_ptr<forma::agent> inner;
extern std::shared_ptr<forma::agent> critic_a, critic_b, critic_c;
extern std::shared_ptr<forma::session_store> store;
extern std::shared_ptr<forma::redis::client> redis;
extern forma::function_tool local_tool, refund_tool, weather;
extern forma::a2a::server& a2a_server;
extern forma::net::http_routes& routes;
extern std::string chain_pem, key_pem, token;
