#pragma once

#include <string>

namespace forma::redis {

/** A Lua script for client::eval: run by its SHA-1 (EVALSHA), and sent whole (EVAL) only
    when the server does not have it cached yet (after a restart, or on a new server).
*/
class script {
public:
    explicit script(std::string source);

    const std::string& source() const noexcept { return source_; }
    /// The SHA-1 of the source, in lowercase hex, as Redis names cached scripts.
    const std::string& sha1() const noexcept { return sha1_; }

private:
    std::string source_;
    std::string sha1_;
};

} // namespace forma::redis
