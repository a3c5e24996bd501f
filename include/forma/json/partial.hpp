#pragma once

#include <forma/error.hpp>
#include <forma/json/detail/partial_slot.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/mapped_kind.hpp>
#include <forma/reflect/type_traits.hpp>

#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace forma {

/** What is known so far of a `T` whose JSON is still arriving: the same shape as
    T, where every part may be not yet known. It only grows: a value once known
    never changes, except that a string grows while it streams.

    - numbers, booleans and enums appear only when whole: `has_value()`, `value()`,
      `value_or(x)`;
    - a string is known in part while it streams: `value()` is the text so far and
      `complete()` says whether its closing quote has arrived;
    - an optional is unknown, null, or a value being read (`is_null()`, `value()`);
    - an array grows element by element (`size()`, `operator[]`, iteration); its
      last element may still be partial;
    - an object fills in member by member: `p[&Person::name]` is the member's
      partial, `p.for_each_member(f)` visits them all;
    - a variant, a map or a std::array appears only when whole.

    `complete()` is true once the value's JSON has ended. `to_value()` is the T
    when everything is known (absent optional members are empty), else nullopt.

        if (const auto& name = p[&Person::name]; name.has_value())
            std::cout << name.value() << (name.complete() ? "\n" : "...");
*/
template <class T>
class partial;

/// Numbers, booleans, enums: known only when whole.
template <class T>
    requires(reflect::mapped_kind_v<T> == reflect::mapped_kind::boolean ||
             reflect::is_number_kind(reflect::mapped_kind_v<T>) ||
             reflect::mapped_kind_v<T> == reflect::mapped_kind::enumeration)
class partial<T> {
public:
    bool has_value() const noexcept { return value_.has_value(); }
    bool complete() const noexcept { return value_.has_value(); }
    const T& value() const { return value_.value(); }
    T value_or(T fallback) const { return value_.value_or(fallback); }
    std::optional<T> to_value() const { return value_; }

private:
    friend struct json_detail::partial_access;
    std::optional<T> value_;
};

/// A string: known in part while it streams.
template <>
class partial<std::string> {
public:
    /// The opening quote has arrived (the text may still be empty).
    bool has_value() const noexcept { return started_; }
    /// The closing quote has arrived.
    bool complete() const noexcept { return complete_; }
    /// The text so far.
    const std::string& value() const noexcept { return text_; }
    std::string value_or(std::string_view fallback) const { return started_ ? text_ : std::string(fallback); }
    std::optional<std::string> to_value() const { return complete_ ? std::optional(text_) : std::nullopt; }

private:
    friend struct json_detail::partial_access;
    std::string text_;
    bool started_ = false;
    bool complete_ = false;
};

/// std::optional<U> and std::unique_ptr<U>: unknown, null, or a U being read.
template <class T>
    requires(reflect::mapped_kind_v<T> == reflect::mapped_kind::nullable)
class partial<T> {
public:
    using element_type = reflect::nullable_element_t<T>;

    /// A value other than null has started.
    bool has_value() const noexcept { return static_cast<bool>(value_); }
    bool is_null() const noexcept { return null_; }
    bool complete() const noexcept { return null_ || (value_ && value_->complete()); }
    /// The value being read (has_value() must be true).
    const partial<element_type>& value() const {
        if (!value_) throw std::bad_optional_access();
        return *value_;
    }
    const partial<element_type>* operator->() const { return &value(); }

    /// Null, or the value, once complete; also null when nothing was sent (an absent member).
    std::optional<T> to_value() const {
        if (!value_) return std::optional<T>(std::in_place); // (not T{}: g++ 12 -O2 then warns maybe-uninitialized)
        auto inner = value_->to_value();
        if (!inner) return std::nullopt;
        if constexpr (reflect::is_optional_v<T>) return T(std::move(*inner));
        else return T(std::make_unique<element_type>(std::move(*inner)));
    }

private:
    friend struct json_detail::partial_access;
    // In place for std::optional<U> (U is complete, so it cannot hold this type); behind a
    // pointer for std::unique_ptr<U>, whose U may.
    std::conditional_t<reflect::is_optional_v<T>, std::optional<partial<element_type>>,
                       std::unique_ptr<partial<element_type>>>
        value_;
    bool null_ = false;
};

/// std::vector, std::list, std::deque: grow element by element.
template <class T>
    requires(reflect::mapped_kind_v<T> == reflect::mapped_kind::sequence)
class partial<T> {
public:
    using element_type = typename T::value_type;

    bool has_value() const noexcept { return started_; }
    bool complete() const noexcept { return complete_; }
    std::size_t size() const noexcept { return elements_.size(); }
    bool empty() const noexcept { return elements_.empty(); }
    const partial<element_type>& operator[](std::size_t i) const { return elements_[i]; }
    auto begin() const noexcept { return elements_.begin(); }
    auto end() const noexcept { return elements_.end(); }

    std::optional<T> to_value() const {
        if (!complete_) return std::nullopt;
        T out;
        if constexpr (requires { out.reserve(elements_.size()); }) out.reserve(elements_.size());
        for (const auto& e : elements_) {
            auto v = e.to_value();
            if (!v) return std::nullopt;
            out.insert(out.end(), std::move(*v));
        }
        return out;
    }

private:
    friend struct json_detail::partial_access;
    std::vector<partial<element_type>> elements_;
    bool started_ = false;
    bool complete_ = false;
};

/// std::variant, string-keyed maps, std::array, boost::json::value: known only when whole.
template <class T>
    requires(reflect::mapped_kind_v<T> == reflect::mapped_kind::variant ||
             reflect::mapped_kind_v<T> == reflect::mapped_kind::string_map ||
             reflect::mapped_kind_v<T> == reflect::mapped_kind::fixed_array ||
             reflect::mapped_kind_v<T> == reflect::mapped_kind::json_value)
class partial<T> {
public:
    bool has_value() const noexcept { return value_.has_value(); }
    bool complete() const noexcept { return value_.has_value(); }
    const T& value() const { return value_.value(); }
    std::optional<T> to_value() const { return value_; }

private:
    friend struct json_detail::partial_access;
    std::optional<T> value_;
};

/// A described struct: fills in member by member.
template <class T>
    requires(reflect::mapped_kind_v<T> == reflect::mapped_kind::described_struct)
class partial<T> {
    using members = reflect::members_of<T>;
    template <class D>
    using member_partial = partial<reflect::member_type_t<decltype(D::pointer)>>;

public:
    /// The opening brace has arrived.
    bool has_value() const noexcept { return started_; }
    /// The closing brace has arrived.
    bool complete() const noexcept { return complete_; }

    /// The partial of a member: `p[&Person::name]`.
    template <class M>
    const partial<M>& operator[](M T::*member) const {
        const partial<M>* found = nullptr;
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<size>>([&](auto I) {
            using D = boost::mp11::mp_at_c<members, I>;
            if constexpr (std::is_same_v<std::remove_cv_t<decltype(D::pointer)>, M T::*>)
                if (!found && D::pointer == member) found = &std::get<I>(members_);
        });
        if (!found) throw error("forma::partial: not a described member");
        return *found;
    }

    /// The partial of member I (in declaration order).
    template <std::size_t I>
    const auto& get() const noexcept {
        return std::get<I>(members_);
    }

    /// Calls f(name, member partial) for each member, in declaration order.
    template <class F>
    void for_each_member(F&& f) const {
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<size>>(
            [&](auto I) { f(names[I], std::get<I>(members_)); });
    }

    /// The T, once the object has ended and every member is known (absent optional
    /// members are empty).
    std::optional<T> to_value() const {
        if (!complete_) return std::nullopt;
        std::optional<T> out(std::in_place);
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<size>>([&](auto I) {
            if (!out) return;
            using D = boost::mp11::mp_at_c<members, I>;
            auto v = std::get<I>(members_).to_value();
            if (v) (*out).*D::pointer = std::move(*v);
            else out.reset();
        });
        return out;
    }

private:
    friend struct json_detail::partial_access;
    static constexpr std::size_t size = boost::mp11::mp_size<members>::value;
    static constexpr auto names = reflect::detail::json_names<T>();

    boost::mp11::mp_rename<boost::mp11::mp_transform<member_partial, members>, std::tuple> members_;
    bool started_ = false;
    bool complete_ = false;
};

} // namespace forma

#include <forma/json/detail/partial_slot_ops.hpp>
