// json_schema<T>() builds once; asking again allocates nothing. Counted with a replaced
// global operator new, so this test has a binary of its own.
#include <forma/json/json_schema.hpp>

#include "test_types.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> allocations{0};
}

void* operator new(std::size_t size) {
    ++allocations;
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

TEST(json_schema_cache, a_second_call_allocates_nothing) {
    using namespace test_types;
    const std::size_t before_first = allocations;
    const auto& first = forma::json_schema<org_chart>({.dialect = forma::schema_dialect::openai_strict});
    EXPECT_GT(allocations.load(), before_first) << "the first call builds the schema";
    const std::size_t before_other = allocations;
    const auto& other_dialect = forma::json_schema<org_chart>();
    EXPECT_GT(allocations.load(), before_other) << "each dialect's schema is built on its first use";

    const std::size_t before = allocations;
    const auto& again = forma::json_schema<org_chart>({.dialect = forma::schema_dialect::openai_strict});
    const auto& other_again = forma::json_schema<org_chart>();
    EXPECT_EQ(allocations.load(), before);
    EXPECT_EQ(&first, &again);
    EXPECT_EQ(&other_dialect, &other_again);
    EXPECT_TRUE(other_dialect.contains("$schema"));
}
