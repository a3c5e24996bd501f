#pragma once
// The slot_ops of each partial<X> (included at the end of forma/json/partial.hpp).

#include <forma/json/detail/element_stage.hpp>
#include <forma/json/from_json.hpp>
#include <forma/json/partial.hpp>
#include <forma/reflect/mapped_kind.hpp>

#include <boost/describe/enumerators.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

namespace forma::json_detail {

struct partial_access {
    template <class X>
    static slot slot_of(partial<X>& node);

    /// How partial<X> follows a value of X's kind as it streams; the rest arrive whole.
    template <class X>
    static constexpr slot_kind kind_of() {
        using reflect::mapped_kind;
        switch (reflect::mapped_kind_v<X>) {
        case mapped_kind::boolean: return slot_kind::boolean;
        case mapped_kind::integer:
        case mapped_kind::number: return slot_kind::number;
        case mapped_kind::enumeration: return slot_kind::enumeration;
        case mapped_kind::string: return slot_kind::string;
        case mapped_kind::nullable: return slot_kind::nullable;
        case mapped_kind::sequence: return slot_kind::sequence;
        case mapped_kind::described_struct: return slot_kind::object;
        default: return slot_kind::whole;
        }
    }

    template <class X>
    static partial<X>& self(void* node) {
        return *static_cast<partial<X>*>(node);
    }

    template <class X>
    static slot resolve(void* node, bool null) {
        auto& p = self<X>(node);
        if (null) {
            p.null_ = true;
            return {};
        }
        if (p.value_) return slot_of(*p.value_);
        if constexpr (reflect::is_optional_v<X>) p.value_.emplace();
        else p.value_ = std::make_unique<partial<reflect::nullable_element_t<X>>>();
        return slot_of(*p.value_);
    }

    template <class X>
    static void open(void* node) {
        self<X>(node).started_ = true;
    }
    template <class X>
    static void close(void* node) {
        self<X>(node).complete_ = true;
    }

    /// Member I's JSON name as bytes known at compile time.
    template <class X, std::size_t I>
    static constexpr auto name_bytes = [] {
        constexpr std::string_view name = partial<X>::names[I];
        std::array<char, name.size()> bytes{};
        std::copy(name.begin(), name.end(), bytes.begin());
        return bytes;
    }();

    template <class X>
    [[gnu::flatten]] static slot member(void* node, std::string_view key, std::size_t& next) {
        constexpr std::size_t size = partial<X>::size;
        if constexpr (size == 0) {
            return {};
        } else {
            auto slot_at = [&](auto I) { return slot_of(std::get<I>(self<X>(node).members_)); };
            // Members usually come in declaration order: the one after the last is tried first,
            // its name compared as constant words (no branches on a length known at run time).
            if (next < size) {
                const slot expected = boost::mp11::mp_with_index<size>(next, [&](auto I) -> slot {
                    constexpr auto& name = name_bytes<X, I>;
                    if (key.size() != name.size() || !equals_constant(key.data(), name)) return {};
                    return slot_at(I);
                });
                if (expected) {
                    ++next;
                    return expected;
                }
            }
            std::size_t i = 0;
            while (i < size && !same_text(partial<X>::names[i], key)) ++i;
            if (i == size) return {};
            next = i + 1;
            return boost::mp11::mp_with_index<size>(i, slot_at);
        }
    }

    template <class X>
    static slot element(void* node) {
        auto& elements = self<X>(node).elements_;
        // The first element takes room for a short array's, as from_json's staging does: growing
        // from 1 would allocate and move at 1, 2 and 4.
        using element = typename std::remove_reference_t<decltype(elements)>::value_type;
        if (elements.capacity() == 0) elements.reserve(std::max<std::size_t>(1, short_array_room<element>));
        return slot_of(elements.emplace_back());
    }

    template <class X>
    static std::string* text(void* node) {
        auto& p = self<X>(node);
        p.started_ = true;
        return &p.text_;
    }

    template <class X>
    static bool enumerator(void* node, std::string_view name) {
        bool found = false;
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<X>>([&](auto D) {
            if (!found && name == D.name) {
                self<X>(node).value_ = D.value;
                found = true;
            }
        });
        return found;
    }

    template <class X>
    static bool number(void* node, const scanned_number& number) {
        X value{}; // as from_json reads one
        if constexpr (std::is_floating_point_v<X>) {
            if (to_floating(number, value)) return self<X>(node).value_ = value, true;
        } else if (number.integral && number.digits <= 19) { // most integers: digits that fit
            if (integer_in_range(number.negative, number.significand, value)) return self<X>(node).value_ = value, true;
        }
        auto r = try_from_json<X>(number.text); // 2.0 as an integer, out of range, underflow: as from_json says
        if (!r) return false;
        self<X>(node).value_ = *r;
        return true;
    }

    template <class X>
    static bool boolean(void* node, bool value) {
        self<X>(node).value_ = value;
        return true;
    }

    template <class X>
    static bool whole(void* node, std::string_view json) {
        auto r = try_from_json<X>(json);
        if (!r) return false;
        self<X>(node).value_ = std::move(*r);
        return true;
    }

    template <class X>
    static constexpr slot_ops ops_of() {
        constexpr slot_kind k = kind_of<X>();
        slot_ops ops{};
        ops.kind = k;
        if constexpr (k == slot_kind::nullable) ops.resolve = &resolve<X>;
        if constexpr (k == slot_kind::object || k == slot_kind::sequence) ops.open = &open<X>;
        if constexpr (k == slot_kind::object || k == slot_kind::sequence || k == slot_kind::string)
            ops.close = &close<X>;
        if constexpr (k == slot_kind::object) ops.member = &member<X>;
        if constexpr (k == slot_kind::sequence) ops.element = &element<X>;
        if constexpr (k == slot_kind::string) ops.text = &text<X>;
        if constexpr (k == slot_kind::enumeration) ops.enumerator = &enumerator<X>;
        if constexpr (k == slot_kind::number) ops.number = &number<X>;
        if constexpr (k == slot_kind::boolean) ops.boolean = &boolean<X>;
        if constexpr (k == slot_kind::whole) ops.whole = &whole<X>;
        return ops;
    }

    template <class X>
    static constexpr slot_ops ops = ops_of<X>();
};

template <class X>
slot partial_access::slot_of(partial<X>& node) {
    return {&node, &ops<X>};
}

} // namespace forma::json_detail
