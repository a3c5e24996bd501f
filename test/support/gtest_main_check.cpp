// A GoogleTest binary whose outcomes are known, for check_gtest_main.cmake: it runs suites of
// it through forma's main (test/support/gtest_main.cpp) and lists it with gtest_suites.cmake.
#include <gtest/gtest.h>

TEST(all_skipped, one) { GTEST_SKIP() << "skipped on purpose"; }
TEST(all_skipped, two) { GTEST_SKIP(); }
TEST(passes, one) { SUCCEED(); }
TEST(fails, one) { ADD_FAILURE() << "fails on purpose"; }
TEST(DISABLED_off, never) { ADD_FAILURE() << "a disabled suite ran"; }

class numbered : public ::testing::TestWithParam<int> {};
TEST_P(numbered, positive) { EXPECT_GT(GetParam(), 0); }
INSTANTIATE_TEST_SUITE_P(small, numbered, ::testing::Values(1, 2));

template <class T>
class typed : public ::testing::Test {};
using typed_types = ::testing::Types<int, long>;
TYPED_TEST_SUITE(typed, typed_types);
TYPED_TEST(typed, zero_is_zero) { EXPECT_EQ(TypeParam{}, 0); }
