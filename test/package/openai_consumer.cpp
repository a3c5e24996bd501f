// forma::json, forma::agent and forma::openai, without hiredis: an agent over the OpenAI client,
// and the request it would send for run<T>.
#include <forma/agent/chat_client_agent.hpp>
#include <forma/json.hpp>
#include <forma/openai/chat_client.hpp>
#include <forma/openai/request_builder.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>

#include <iostream>
#include <vector>

struct point {
    int x = 0;
    int y = 0;
};
BOOST_DESCRIBE_STRUCT(point, (), (x, y))

int main() {
    boost::asio::io_context io;
    forma::openai::chat_client client(io.get_executor(), {.base_url = "https://127.0.0.1:1/v1", .model = "m"});
    forma::chat_client_agent agent(client, {.name = "points"});
    forma::chat_options options;
    options.response_format = forma::response_format::for_type<point>();
    const std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "Hi")};
    const auto body = forma::openai::build_request(messages, options, "m", false);
    std::cout << agent.name() << ' ' << body.at("response_format").at("json_schema").at("name").as_string().c_str() << '\n';
}
