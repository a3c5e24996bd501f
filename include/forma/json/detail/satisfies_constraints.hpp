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
    constexpr mapped_kind kind = mapped_kind_v<T>;
    if constexpr (kind == mapped_kind::described_struct) {
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
    } else if constexpr (kind == mapped_kind::nullable) {
        return !value || satisfies_constraints(*value);
    } else if constexpr (is_array_kind(kind)) {
        for (const auto& e : value)
            if (!satisfies_constraints(e)) return false;
        return true;
    } else if constexpr (kind == mapped_kind::string_map) {
        for (const auto& [key, e] : value)
            if (!satisfies_constraints(e)) return false;
        return true;
    } else if constexpr (kind == mapped_kind::variant) {
        return std::visit([](const auto& alternative) { return satisfies_constraints(alternative); }, value);
    } else {
        return true;
    }
}

} // namespace forma::json_detail
