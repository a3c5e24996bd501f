#pragma once

#include <forma/mcp/transport.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace forma::mcp {

/// An MCP server run as a child process, speaking newline-delimited JSON-RPC on its
/// standard input and output (the MCP stdio transport).
struct stdio_server {
    /** The program: a path (a command with a '/'; a relative one is taken from
        working_directory), or a name looked up on PATH. A path that does not exist or is
        not an executable file is an mcp_error naming it, before anything is started.
    */
    std::string command;
    std::vector<std::string> args{};
    /// Variables added to (or replacing those of) this process's environment. The values of
    /// credential-named ones (`*_TOKEN`, `*_KEY`, `*PASSWORD*`, ...) never appear in an error,
    /// even when the server prints them to the stderr an error quotes.
    std::map<std::string, std::string> env{};
    /// Where the server runs; empty: this process's working directory.
    std::string working_directory{};
    /// After its input is closed, how long the server has to exit before it is terminated.
    std::chrono::milliseconds shutdown_grace{2000};
    /// A message longer than this is an mcp_error (and the server is stopped).
    std::size_t max_message_size = 16 * 1024 * 1024;
    /// How much of the server's stderr is kept for error messages (its last bytes).
    std::size_t stderr_kept = 4096;
};

/** Runs `server` as a child process on `executor` (Boost.Process), its stderr kept for
    error messages. The child is terminated when the transport is closed or destroyed; a
    start that fails (an mcp_error) leaves no child process, not even an unreaped one.
    Starting it sets SIGPIPE to ignored when it is at its default, so that writing to a
    server that has exited is an error, not the end of this process.
*/
std::unique_ptr<transport> make_stdio_transport(boost::asio::any_io_executor executor, stdio_server server);

} // namespace forma::mcp
