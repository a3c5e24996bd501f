// The main of forma's GoogleTest binaries. CTest runs them a suite a process, and a run in which
// every test skipped itself (GTEST_SKIP: no Node.js, no model) exits with 77, which CTest reports
// as skipped (SKIP_RETURN_CODE) rather than passed.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  const auto& unit = *::testing::UnitTest::GetInstance();
  if (result == 0 && unit.successful_test_count() == 0 && unit.skipped_test_count() > 0) return 77;
  return result;
}
