#pragma once

#include <forma/json/detail/value_reader.hpp>

#include <variant>

namespace forma::json_detail {

/** Whether every member constraint (FORMA_DESCRIBE_FIELDS) holds throughout
    `value`, checked as from_json checks them while it reads (check_value). For a
    T put together another way: the partial reader's final value.
*/
template <class T>
bool satisfies_constraints(const T& value) {
    using namespace reflect;
    if constexpr (is_described_struct_v<T>) {
        bool ok = true;
        boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
            if (!ok) return;
            const auto& member = value.*D.pointer;
            static constexpr field_info info = field_info_of<T, decltype(D)>();
            if constexpr (info.has_number_constraints() || info.has_string_constraints() ||
                          info.has_items_constraints()) {
                reader errors({}, {});
                ok = check_value(errors, info, member);
            }
            ok = ok && satisfies_constraints(member);
        });
        return ok;
    } else if constexpr (is_nullable_v<T>) {
        return !value || satisfies_constraints(*value);
    } else if constexpr (is_sequence_v<T> || is_std_array_v<T>) {
        for (const auto& e : value)
            if (!satisfies_constraints(e)) return false;
        return true;
    } else if constexpr (is_string_map_v<T>) {
        for (const auto& [key, e] : value)
            if (!satisfies_constraints(e)) return false;
        return true;
    } else if constexpr (is_variant_v<T>) {
        return std::visit([](const auto& alternative) { return satisfies_constraints(alternative); }, value);
    } else {
        return true;
    }
}

} // namespace forma::json_detail
