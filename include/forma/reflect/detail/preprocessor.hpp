#pragma once

// FORMA_PP_FOR_EACH(macro, data, a, b, ...) expands to macro(data, a), macro(data, b), ...
// (comma-separated), for up to 342 arguments, using C++20 __VA_OPT__ for recursion.

#define FORMA_PP_PARENS ()
#define FORMA_PP_EXPAND(...) FORMA_PP_EXPAND3(FORMA_PP_EXPAND3(FORMA_PP_EXPAND3(__VA_ARGS__)))
#define FORMA_PP_EXPAND3(...) FORMA_PP_EXPAND2(FORMA_PP_EXPAND2(FORMA_PP_EXPAND2(__VA_ARGS__)))
#define FORMA_PP_EXPAND2(...) FORMA_PP_EXPAND1(FORMA_PP_EXPAND1(FORMA_PP_EXPAND1(__VA_ARGS__)))
#define FORMA_PP_EXPAND1(...) FORMA_PP_EXPAND0(FORMA_PP_EXPAND0(FORMA_PP_EXPAND0(__VA_ARGS__)))
#define FORMA_PP_EXPAND0(...) __VA_ARGS__

#define FORMA_PP_FOR_EACH(macro, data, ...)                                                        \
    __VA_OPT__(FORMA_PP_EXPAND(FORMA_PP_FOR_EACH_STEP(macro, data, __VA_ARGS__)))
#define FORMA_PP_FOR_EACH_STEP(macro, data, first, ...)                                            \
    macro(data, first) __VA_OPT__(, FORMA_PP_FOR_EACH_AGAIN FORMA_PP_PARENS(macro, data, __VA_ARGS__))
#define FORMA_PP_FOR_EACH_AGAIN() FORMA_PP_FOR_EACH_STEP

#define FORMA_PP_UNPAREN(...) __VA_ARGS__
