#pragma once
// A chat agent for the server tests whose tool delete_file needs approval: its scripted model
// replies, in the order the test queues them, with a call of delete_file ("call-1",
// {"path": "notes.txt"}) or with a text.

#include <forma/agent/chat_client_agent.hpp>
#include <forma/chat/make_tool.hpp>
#include <forma/testing/scripted_chat_client.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/describe/class.hpp>

#include <string>
#include <vector>

namespace forma_test {

struct file_to_delete {
    std::string path;
};
BOOST_DESCRIBE_STRUCT(file_to_delete, (), (path))

struct approval_agent {
    explicit approval_agent(boost::asio::io_context& io) : model(io.get_executor()) {}

    /// The model's next reply calls delete_file.
    approval_agent& calls() {
        model.add_response(forma::agent_response<>(forma::chat_message(
            forma::chat_role::assistant(), std::vector<forma::content>{forma::function_call_content("call-1", "delete_file", {{"path", "notes.txt"}})})));
        return *this;
    }
    /// The model's next reply is `text`.
    approval_agent& says(std::string text) {
        model.add_text_response(std::move(text));
        return *this;
    }

    forma::testing::scripted_chat_client model;
    /// The paths delete_file was run with.
    std::vector<std::string> deleted;
    forma::function_tool remove = forma::make_tool(
        "delete_file", "Deletes a file",
        [this](const file_to_delete& f) {
            deleted.push_back(f.path);
            return std::string("deleted");
        },
        forma::function_tool_options{.requires_approval = true});
    forma::chat_client_agent agent{model, {.name = "files", .tools = {remove}}};
};

} // namespace forma_test
