// What telemetry.md's statement block takes as given.
#pragma once

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <string>

struct Person {
    std::string name;
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(Person, (), (name, age))

extern boost::asio::io_context io;
extern std::string key;
