// The Redis test binary's environments, in this order: after the tests the shared server is
// stopped first, then no_child_left checks that no process is left.
#include "redis_test_support.hpp"
#include "support/child_processes.hpp"

namespace {
[[maybe_unused]] const auto* const children = ::testing::AddGlobalTestEnvironment(new forma_test::no_child_left);
[[maybe_unused]] const auto* const shared = ::testing::AddGlobalTestEnvironment(new forma_test::shared_redis_environment);
} // namespace
