#pragma once

#include <concepts>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace forma {

/** An optional value kept on the heap: unset, it is one pointer. For a large member that is
    seldom set in a type every run copies into a coroutine frame (agent_run_options::chat_options):
    the frame stays small enough for Asio to recycle. Spelled as std::optional is (`if (o)`,
    `*o`, `o->`, `emplace`, `value_or`, `= value`, `= std::nullopt`), converts to and from a
    std::optional, and is a value as it is: copying copies what it holds. Unlike std::optional,
    a moved-from one is empty.
*/
template <class T>
class heap_optional {
public:
    using value_type = T;

    heap_optional() noexcept = default;
    heap_optional(std::nullopt_t) noexcept {}
    heap_optional(const T& value) : value_(std::make_unique<T>(value)) {}
    heap_optional(T&& value) : value_(std::make_unique<T>(std::move(value))) {}
    heap_optional(const std::optional<T>& value) : value_(value ? std::make_unique<T>(*value) : nullptr) {}
    heap_optional(std::optional<T>&& value) : value_(value ? std::make_unique<T>(std::move(*value)) : nullptr) {}
    heap_optional(const heap_optional& other) : value_(other ? std::make_unique<T>(*other) : nullptr) {}
    heap_optional(heap_optional&&) noexcept = default;
    ~heap_optional() = default;

    heap_optional& operator=(const heap_optional& other) {
        if (!other) value_.reset();
        else if (value_) *value_ = *other;
        else value_ = std::make_unique<T>(*other);
        return *this;
    }
    heap_optional& operator=(heap_optional&&) noexcept = default;
    heap_optional& operator=(std::nullopt_t) noexcept {
        value_.reset();
        return *this;
    }
    template <class U = T>
        requires(!std::same_as<std::remove_cvref_t<U>, heap_optional> && std::constructible_from<T, U> &&
                 std::assignable_from<T&, U>)
    heap_optional& operator=(U&& value) {
        if (value_) *value_ = std::forward<U>(value);
        else value_ = std::make_unique<T>(std::forward<U>(value));
        return *this;
    }

    template <class... Args>
    T& emplace(Args&&... args) {
        value_ = std::make_unique<T>(std::forward<Args>(args)...);
        return *value_;
    }
    void reset() noexcept { value_.reset(); }

    bool has_value() const noexcept { return value_ != nullptr; }
    explicit operator bool() const noexcept { return has_value(); }

    T& operator*() & noexcept { return *value_; }
    const T& operator*() const& noexcept { return *value_; }
    T&& operator*() && noexcept { return std::move(*value_); }
    T* operator->() noexcept { return value_.get(); }
    const T* operator->() const noexcept { return value_.get(); }

    /// @throws std::bad_optional_access when empty.
    T& value() & { return checked(value_); }
    const T& value() const& { return checked(value_); }
    T&& value() && { return std::move(checked(value_)); }

    template <class U>
    T value_or(U&& fallback) const& {
        return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
    }
    template <class U>
    T value_or(U&& fallback) && {
        return value_ ? std::move(*value_) : static_cast<T>(std::forward<U>(fallback));
    }

    /// As a std::optional (a copy of the value, or empty), for code written against one.
    operator std::optional<T>() const& { return value_ ? std::optional<T>(*value_) : std::nullopt; }
    operator std::optional<T>() && { return value_ ? std::optional<T>(std::move(*value_)) : std::nullopt; }

    friend bool operator==(const heap_optional& a, const heap_optional& b)
        requires std::equality_comparable<T>
    {
        return a.has_value() == b.has_value() && (!a || *a == *b);
    }
    friend bool operator==(const heap_optional& a, std::nullopt_t) noexcept { return !a; }

private:
    // As std::optional::value does: the standard's exception, for code written against it.
    static T& checked(const std::unique_ptr<T>& value) {
        if (!value) throw std::bad_optional_access();
        return *value;
    }

    std::unique_ptr<T> value_;
};

} // namespace forma
