#pragma once

#include <forma/mcp/content_block.hpp>
#include <forma/mcp/mcp_error.hpp>
#include <forma/mcp/prompt.hpp>
#include <forma/mcp/resource.hpp>
#include <forma/mcp/sampling.hpp>
#include <forma/mcp/transport.hpp>
#include <forma/model/content.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma::mcp {

/// The protocol revision the client asks for first; it also accepts 2025-06-18, 2025-03-26 and 2024-11-05.
inline constexpr const char* latest_protocol_version = "2025-11-25";

/// A `notifications/progress` of a running call.
struct progress {
    /// The tool whose call reports it.
    std::string tool;
    double value = 0;
    std::optional<double> total{};
    std::string message{};
};

/// A `notifications/message` (the server's log).
struct log_message {
    std::string level; ///< "debug" ... "emergency"
    std::string logger{};
    boost::json::value data{};
};

struct client_options {
    std::string client_name = "forma";
    std::string client_version = "0.1.0";
    /// A request not answered within this is cancelled (`notifications/cancelled`) and fails.
    std::chrono::milliseconds request_timeout{60000};
    /// How long connect() waits for the whole handshake.
    std::chrono::milliseconds connect_timeout{30000};
    /// A tools/list answer past this many tools (over all pages) is an mcp_error.
    std::size_t max_tools = 1000;
    /// Called on the client's executor; must not throw.
    std::function<void(const progress&)> on_progress{};
    std::function<void(const log_message&)> on_log{};
    /// The server's tool list changed: list_tools() (or mcp::tools) again to see it.
    std::function<void()> on_tools_changed{};
    /// A resource subscribed to (subscribe()) changed: read_resource() again to see it.
    std::function<void(const std::string& uri)> on_resource_updated{};
    /** Answers the server's sampling/createMessage (its tools ask this client's model); set, the
        client declares the sampling capability. sample_with(chat_client) makes one. An exception
        is a JSON-RPC error to the server with its message.
    */
    std::function<boost::asio::awaitable<sampling_result>(sampling_request)> on_sampling{};
    /** Answers the server's elicitation/create (its tools ask this client's user); set, the client
        declares the elicitation capability. An accepted answer gets the schema's default for each
        property it leaves out.
    */
    std::function<boost::asio::awaitable<elicitation_result>(elicitation_request)> on_elicitation{};
    /// The server's sampling and elicitation requests answered at once; more are refused (-32603).
    std::size_t max_server_requests = 16;
};

/// What the server said about itself in the handshake.
struct server_info {
    std::string name;
    std::string version;
    std::string protocol_version;
    boost::json::object capabilities;
    std::string instructions;
};

/// One tool as the server lists it.
struct tool_info {
    std::string name;
    std::string title;
    std::string description;
    /// The JSON Schema of the arguments, as the server gives it.
    boost::json::object input_schema;
    std::optional<boost::json::object> output_schema{};
    boost::json::object annotations{};
};

/// One resource as the server lists it.
struct resource_info {
    std::string uri;
    std::string name;
    std::string title{};
    std::string description{};
    std::string mime_type{};
};

/// One resource template as the server lists it (RFC 6570, e.g. `file:///logs/{day}`).
struct resource_template_info {
    std::string uri_template;
    std::string name;
    std::string title{};
    std::string description{};
    std::string mime_type{};
};

/// One prompt as the server lists it.
struct prompt_info {
    std::string name;
    std::string title{};
    std::string description{};
    std::vector<prompt_argument> arguments{};
};

/// A prompt filled in (prompts/get): messages of text, images and audio (data_content),
/// resource links (uri_content) and embedded resources (text_content or data_content, named by
/// their URI).
struct prompt_result {
    std::string description;
    std::vector<chat_message> messages;
};

/// The result of a tools/call.
struct call_result {
    /// text → text_content, image and audio → data_content, resource links → uri_content,
    /// embedded resources → text_content or data_content (named by their URI).
    std::vector<content> contents;
    /// `structuredContent`, when the tool returned it.
    std::optional<boost::json::value> structured_content{};
    /// The tool failed (`isError`): contents say why, for the model to read.
    bool is_error = false;
    /// The text of every text content, joined by newlines.
    std::string text() const;
};

/** A client of one MCP server (Model Context Protocol, JSON-RPC 2.0) over a transport:
    the initialize handshake, tools (list and call), resources (list, read, subscribe), prompts
    (list, get), completion, the log level, ping, the server's notifications, and answers to
    the server's sampling and elicitation requests (client_options::on_sampling, on_elicitation).
    Requests may overlap; each waits for its own answer. Cancelling a call (the
    awaiting coroutine's cancellation slot) tells the server (`notifications/cancelled`).
    Everything runs on `executor`; the client must outlive its operations and close()
    should be awaited before it is destroyed (the destructor stops the server too).
*/
class client {
public:
    client(boost::asio::any_io_executor executor, std::unique_ptr<transport> transport, client_options options = {});
    ~client();
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    /// Starts the transport and runs the handshake. @throws mcp_error.
    boost::asio::awaitable<void> connect();
    /// Valid after connect().
    const server_info& server() const noexcept;
    /// Every tool, all pages. @throws mcp_error.
    boost::asio::awaitable<std::vector<tool_info>> list_tools();
    /// Calls a tool. A tool that fails reports it in the result (is_error); a protocol
    /// error, a timeout or a server that is gone throws mcp_error.
    boost::asio::awaitable<call_result> call_tool(std::string name, boost::json::object arguments);
    /// Every resource, all pages. @throws mcp_error.
    boost::asio::awaitable<std::vector<resource_info>> list_resources();
    /// Every resource template, all pages. @throws mcp_error.
    boost::asio::awaitable<std::vector<resource_template_info>> list_resource_templates();
    /// The resource's contents (text, or bytes). @throws mcp_error (-32002 for a URI the server does not serve).
    boost::asio::awaitable<std::vector<resource_contents>> read_resource(std::string uri);
    /// client_options::on_resource_updated is told when it changes. @throws mcp_error.
    boost::asio::awaitable<void> subscribe(std::string uri);
    boost::asio::awaitable<void> unsubscribe(std::string uri);
    /// Every prompt, all pages. @throws mcp_error.
    boost::asio::awaitable<std::vector<prompt_info>> list_prompts();
    /// The prompt filled with `arguments`. @throws mcp_error (-32602 for arguments that do not fit).
    boost::asio::awaitable<prompt_result> get_prompt(std::string name, template_variables arguments = {});
    /// completion/complete: values for a prompt's argument, or a template's variable, starting as `value` does.
    boost::asio::awaitable<std::vector<std::string>> complete_prompt_argument(std::string prompt, std::string argument, std::string value);
    boost::asio::awaitable<std::vector<std::string>> complete_template_variable(std::string uri_template, std::string variable, std::string value);
    /// logging/setLevel: the server logs (client_options::on_log) from `level` on. @throws mcp_error.
    boost::asio::awaitable<void> set_log_level(log_level level);
    /// @throws mcp_error when the server does not answer.
    boost::asio::awaitable<void> ping();
    /// Fails the requests still waiting, and closes the transport. Never throws.
    boost::asio::awaitable<void> close();

    /// The server, for messages.
    std::string describe() const;
    using executor_type = boost::asio::any_io_executor;
    executor_type get_executor() const noexcept;

    // The coroutines above for any completion token; a handler gets (std::exception_ptr) or
    // (std::exception_ptr, result).
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_connect(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), connect(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_list_tools(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), list_tools(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_call_tool(std::string name, boost::json::object arguments, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), call_tool(std::move(name), std::move(arguments)),
                                     std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_list_resources(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), list_resources(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_list_resource_templates(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), list_resource_templates(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_read_resource(std::string uri, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), read_resource(std::move(uri)), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_subscribe(std::string uri, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), subscribe(std::move(uri)), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_unsubscribe(std::string uri, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), unsubscribe(std::move(uri)), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_list_prompts(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), list_prompts(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_get_prompt(std::string name, template_variables arguments, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), get_prompt(std::move(name), std::move(arguments)), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_set_log_level(log_level level, CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), set_log_level(level), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_ping(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), ping(), std::forward<CompletionToken>(token));
    }
    template <class CompletionToken = boost::asio::default_completion_token_t<executor_type>>
    auto async_close(CompletionToken&& token = {}) {
        return boost::asio::co_spawn(get_executor(), close(), std::forward<CompletionToken>(token));
    }

private:
    struct state;
    static boost::asio::awaitable<void> close_state(std::shared_ptr<state> s);
    std::shared_ptr<state> state_;
};

} // namespace forma::mcp
