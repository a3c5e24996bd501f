// forma::model alone: a response's messages and its text, and its JSON.
#include <forma/model/agent_response.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <iostream>

int main() {
    forma::agent_response<> response(forma::chat_message(forma::chat_role::assistant(), "an answer"));
    std::cout << response.text() << ' ' << boost::json::serialize(boost::json::value_from(response)).size() << " bytes of JSON\n";
}
