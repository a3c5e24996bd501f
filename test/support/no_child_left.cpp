// Linked into the test binaries that start processes: each run of them ends with none left.
#include "support/child_processes.hpp"

namespace {
[[maybe_unused]] const auto* const registered = ::testing::AddGlobalTestEnvironment(new forma_test::no_child_left);
} // namespace
