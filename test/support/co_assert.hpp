#pragma once
// ASSERT_TRUE returns, which a coroutine cannot: this fails the test and co_returns.

#include <gtest/gtest.h>

#define CO_ASSERT_TRUE(condition)                 \
    if (!(condition)) {                           \
        ADD_FAILURE() << "expected: " #condition; \
        co_return;                                \
    }
