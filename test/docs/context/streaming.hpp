// What streaming.md's statement block takes as given.
#pragma once

#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <optional>
#include <string>

struct Person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(Person, (), (name, age, occupation))

extern forma::agent& agent;
void use(const Person& person);
