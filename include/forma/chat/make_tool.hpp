#pragma once

#include <forma/chat/function_tool.hpp>
#include <forma/chat/tool_error.hpp>
#include <forma/json/from_json.hpp>
#include <forma/json/json_schema.hpp>
#include <forma/json/schema_validator.hpp>
#include <forma/json/to_json.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/describe/members.hpp>
#include <boost/json/value.hpp>

#include <concepts>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace forma {
namespace chat_detail {

/// The result type and parameter list of a callable that is not overloaded or generic.
template <class R, class... A>
struct signature {
    using result = R;
    static constexpr std::size_t arity = sizeof...(A);
    template <std::size_t>
    struct parameter {
        using type = void;
    };
};
template <class R, class A>
struct signature<R, A> {
    using result = R;
    static constexpr std::size_t arity = 1;
    template <std::size_t>
    struct parameter {
        using type = std::remove_cvref_t<A>;
    };
};

template <class F>
struct signature_of;
template <class R, class... A>
struct signature_of<R (*)(A...)> : signature<R, A...> {};
template <class R, class... A>
struct signature_of<R (*)(A...) noexcept> : signature<R, A...> {};
template <class C, class R, class... A>
struct signature_of<R (C::*)(A...)> : signature<R, A...> {};
template <class C, class R, class... A>
struct signature_of<R (C::*)(A...) const> : signature<R, A...> {};
template <class C, class R, class... A>
struct signature_of<R (C::*)(A...) noexcept> : signature<R, A...> {};
template <class C, class R, class... A>
struct signature_of<R (C::*)(A...) const noexcept> : signature<R, A...> {};

template <class F>
concept has_one_call_operator = requires { &F::operator(); };

template <class F>
struct callable_signature : signature_of<decltype(&F::operator())> {};
template <class F>
    requires std::is_pointer_v<F>
struct callable_signature<F> : signature_of<F> {};

template <class T>
struct awaited {
    using type = T;
    static constexpr bool is_awaitable = false;
};
template <class T, class Executor>
struct awaited<boost::asio::awaitable<T, Executor>> {
    using type = T;
    static constexpr bool is_awaitable = true;
};

/// A tool's result as JSON: written with to_json, a boost::json::value as it is.
template <class T>
boost::json::value result_json(T&& result) {
    if constexpr (std::is_same_v<std::remove_cvref_t<T>, boost::json::value>)
        return std::forward<T>(result);
    else
        return to_json_value(result);
}

/// Calls `f(args...)`, awaiting it when it is a coroutine, and returns its result as JSON (null for void).
template <class F, class... Args>
boost::asio::awaitable<boost::json::value> call_tool(F& f, Args&&... args) {
    using returned = std::invoke_result_t<F&, Args&&...>;
    using value = typename awaited<returned>::type;
    if constexpr (awaited<returned>::is_awaitable) {
        if constexpr (std::is_void_v<value>) {
            co_await std::invoke(f, std::forward<Args>(args)...);
            co_return nullptr;
        } else {
            co_return result_json(co_await std::invoke(f, std::forward<Args>(args)...));
        }
    } else if constexpr (std::is_void_v<value>) {
        std::invoke(f, std::forward<Args>(args)...);
        co_return nullptr;
    } else {
        co_return result_json(std::invoke(f, std::forward<Args>(args)...));
    }
}

/// `options` with the result's schema when the result (awaited) is a described struct.
template <class Returned>
function_tool_options with_result_schema(function_tool_options options) {
    using value = std::remove_cvref_t<typename awaited<Returned>::type>;
    if constexpr (boost::describe::has_describe_members<value>::value) {
        if (!options.result_schema) options.result_schema = json_schema<value>();
    }
    return options;
}

/// The arguments read as an `Args`. @throws tool_arguments_error saying where and what is wrong.
template <class Args>
Args read_arguments(std::string_view text) {
    auto read = try_from_json<Args>(text.empty() ? std::string_view("{}") : text);
    if (!read) throw tool_arguments_error(read.error());
    return std::move(*read);
}

/// The arguments as a JSON value (no text is `{}`). @throws tool_arguments_error when not JSON.
boost::json::value parse_arguments(std::string_view text);

/// The parameters of a tool that takes nothing: an empty, closed object.
const boost::json::object& no_parameters();

/// The parameters of a runtime-schema tool. @throws schema_error for a boolean schema.
boost::json::object object_schema(std::string_view tool_name, const boost::json::value& schema);

} // namespace chat_detail

/** A tool from a C++ callable: the model's arguments are read into the callable's
    parameter, a described struct, with from_json; its result is written with
    to_json.

        struct weather_query { std::string city; };
        BOOST_DESCRIBE_STRUCT(weather_query, (), (city))
        FORMA_DESCRIBE_FIELDS(weather_query, (city, .description = "City name"));

        forma::function_tool weather = forma::make_tool("get_weather", "The weather in a city",
            [](const weather_query& q) -> boost::asio::awaitable<forecast> { co_return co_await look_up(q.city); });

    The callable takes one described struct (by value or reference) or nothing, and
    returns a value to_json can write, `boost::asio::awaitable` of one, or void
    (the model reads `null`). The arguments' schema is `json_schema<Args>` in the
    OpenAI strict dialect, with the fields' descriptions and constraints. Arguments
    that are not JSON or not an `Args` go back to the model as the call's result,
    naming the JSON Pointer and what was expected. An exception from the callable
    is a failed call.

    The callable is copied into the tool and shared by its copies; a coroutine's
    captures must stay valid while it runs (the tool loop keeps the tool alive).
    @throws error for a name OpenAI-compatible APIs refuse (see function_tool).
*/
template <class F>
    requires(!std::convertible_to<F, std::string_view>)
function_tool make_tool(std::string name, std::string description, F callable, function_tool_options options = {}) {
    using callable_type = std::decay_t<F>;
    static_assert(chat_detail::has_one_call_operator<callable_type> || std::is_pointer_v<callable_type>,
                  "make_tool needs a callable with one call operator: a generic or overloaded lambda has no "
                  "single parameter type to read the arguments into");
    using signature = chat_detail::callable_signature<callable_type>;
    static_assert(signature::arity <= 1, "a tool's callable takes one described struct, or nothing");
    if constexpr (signature::arity == 0) {
        function_tool::invoker_type invoker = [f = std::move(callable)](
                                                  const tool_invocation&) mutable -> boost::asio::awaitable<boost::json::value> {
            co_return co_await chat_detail::call_tool(f);
        };
        return function_tool(std::move(name), std::move(description), chat_detail::no_parameters(), std::move(invoker),
                             chat_detail::with_result_schema<std::invoke_result_t<callable_type&>>(std::move(options)));
    } else {
        using args_type = typename signature::template parameter<0>::type;
        static_assert(boost::describe::has_describe_members<args_type>::value,
                      "a tool's argument must be a struct described with BOOST_DESCRIBE_STRUCT");
        function_tool::invoker_type invoker = [f = std::move(callable)](const tool_invocation& invocation) mutable
            -> boost::asio::awaitable<boost::json::value> {
            args_type arguments = chat_detail::read_arguments<args_type>(invocation.arguments);
            co_return co_await chat_detail::call_tool(f, std::move(arguments));
        };
        return function_tool(std::move(name), std::move(description),
                             json_schema<args_type>({.dialect = schema_dialect::openai_strict}), std::move(invoker),
                             chat_detail::with_result_schema<std::invoke_result_t<callable_type&, args_type&&>>(std::move(options)));
    }
}

/** A tool whose arguments follow a JSON Schema known only at run time (read from
    a file, received from a user). The schema is compiled once, here, with
    schema_validator; each call's arguments are parsed and validated against it
    before `callable` gets them as a `boost::json::value`. What does not parse or
    validate goes back to the model with the JSON Pointer of the offending value.

    `callable` takes a `boost::json::value` (by value or reference) and returns
    what the typed make_tool's may return.
    @throws schema_error when `schema_text` is not JSON, not a JSON Schema (2020-12,
    as schema_validator reads it), or not an object schema (`"type": "object"`,
    which OpenAI-compatible APIs require of a tool's parameters).
    @throws error for a name OpenAI-compatible APIs refuse.
*/
template <class F>
function_tool make_tool(std::string name, std::string description, std::string_view schema_text, F callable,
                        function_tool_options options = {}) {
    static_assert(std::is_invocable_v<F&, boost::json::value&&>,
                  "a runtime-schema tool's callable takes a boost::json::value");
    schema_validator validator = schema_validator::from_text(schema_text);
    boost::json::object parameters = chat_detail::object_schema(name, validator.schema());
    function_tool::invoker_type invoker = [f = std::move(callable), validator = std::move(validator)](
                                              const tool_invocation& invocation) mutable
        -> boost::asio::awaitable<boost::json::value> {
        boost::json::value arguments = chat_detail::parse_arguments(invocation.arguments);
        if (auto valid = validator.try_validate(arguments); !valid) throw tool_arguments_error(valid.error());
        co_return co_await chat_detail::call_tool(f, std::move(arguments));
    };
    return function_tool(std::move(name), std::move(description), std::move(parameters), std::move(invoker),
                         options);
}

} // namespace forma
