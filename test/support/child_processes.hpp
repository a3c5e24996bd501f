#pragma once
// Checking that a test leaves no process behind: the servers and child processes it starts
// are this process's children until they are reaped.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include <unistd.h>

namespace forma_test {

/// The processes whose parent is this one (from /proc), zombies included: a child not reaped
/// is left behind too.
inline int child_processes() {
    int count = 0;
    const std::string self = std::to_string(::getpid());
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream stat(entry.path() / "stat");
        std::string pid;
        if (!(stat >> pid)) continue;
        // The name is in parentheses and may hold spaces: skip to its closing one.
        std::string rest((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = rest.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(rest.substr(close + 1));
        std::string state, parent;
        if (fields >> state >> parent && parent == self) ++count;
    }
    return count;
}

/// Registered by a test binary: after its tests, no child process may be left.
class no_child_left : public ::testing::Environment {
public:
    void TearDown() override { EXPECT_EQ(child_processes(), 0) << "a test left a child process behind"; }
};

} // namespace forma_test
