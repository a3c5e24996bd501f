#pragma once

#include <forma/json/detail/schema_context.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/mapped_kind.hpp>
#include <forma/reflect/type_name.hpp>
#include <forma/reflect/type_traits.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/json/array.hpp>
#include <boost/mp11/algorithm.hpp>

#include <tuple>
#include <type_traits>

namespace forma::json_detail {

// Pass 1: find the described structs that contain themselves.
template <class T>
void discover(schema_context& c) {
    using namespace reflect;
    constexpr mapped_kind kind = mapped_kind_v<T>;
    if constexpr (kind == mapped_kind::described_struct) {
        if (!c.begin_visit(type_id<T>())) return;
        boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
            discover<member_type_t<decltype(D.pointer)>>(c);
        });
        c.end_visit(type_id<T>());
    } else if constexpr (kind == mapped_kind::nullable) {
        discover<nullable_element_t<T>>(c);
    } else if constexpr (is_array_kind(kind)) {
        discover<element_t<T>>(c);
    } else if constexpr (kind == mapped_kind::string_map) {
        discover<typename T::mapped_type>(c);
    } else if constexpr (kind == mapped_kind::variant) {
        [&]<class... Ts>(std::variant<Ts...>*) { (discover<Ts>(c), ...); }(static_cast<T*>(nullptr));
    }
}

template <class T>
boost::json::value emit(schema_context& c);

/// The schema of T with a member's constraints applied where they belong.
template <class T>
boost::json::value emit_constrained(schema_context& c, const field_info& info, std::string& notes) {
    using namespace reflect;
    constexpr mapped_kind kind = mapped_kind_v<T>;
    if constexpr (kind == mapped_kind::nullable) {
        return nullable_schema(emit_constrained<nullable_element_t<T>>(c, info, notes));
    } else if constexpr (is_array_kind(kind)) {
        field_info element_info = info;
        element_info.min_items.reset();
        element_info.max_items.reset();
        boost::json::value schema = emit<T>(c);
        auto& object = schema.as_object();
        object["items"] = emit_constrained<element_t<T>>(c, element_info, notes);
        if constexpr (kind == mapped_kind::sequence) { // an array's size is fixed already
            field_info items_info;
            items_info.min_items = info.min_items;
            items_info.max_items = info.max_items;
            apply_keywords(object, "array", items_info, c, notes);
        }
        return schema;
    } else if constexpr (kind == mapped_kind::string || is_number_kind(kind)) {
        boost::json::value schema = emit<T>(c);
        apply_keywords(schema.as_object(), json_type_name(kind), info, c, notes);
        return schema;
    } else {
        return emit<T>(c);
    }
}

template <class T>
boost::json::value object_schema(schema_context& c) {
    using namespace reflect;
    boost::json::object schema;
    schema["type"] = "object";
    constexpr type_info info = type_info_of<T>();
    if constexpr (!info.description.empty()) schema["description"] = info.description;
    boost::json::object properties;
    boost::json::array required;
    boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
        using M = member_type_t<decltype(D.pointer)>;
        constexpr field_info field = field_info_of<T, decltype(D)>();
        std::string notes;
        boost::json::value property = emit_constrained<M>(c, field, notes);
        describe(property, field.description, notes, c);
        constexpr std::string_view name = json_name_of<T, decltype(D)>();
        properties[name] = std::move(property);
        if (c.strict() || !is_nullable_v<M>) required.emplace_back(name);
    });
    schema["properties"] = std::move(properties);
    schema["required"] = std::move(required);
    schema["additionalProperties"] = false;
    return schema;
}

// A recursive struct is written once in `$defs` and referred to as "#/$defs/<name>", the root's
// too (the root is also written in place, an object as strict mode wants): schema converters
// such as llama.cpp's take references into `$defs` but not "#".
template <class T>
boost::json::value struct_schema(schema_context& c) {
    const void* id = type_id<T>();
    if (!c.is_recursive(id)) return object_schema<T>(c);
    bool created = false;
    std::string name = c.definition_name(id, schema_name<T>(), created);
    if (created) c.define(name, object_schema<T>(c));
    return reference_schema(name);
}

template <class E>
boost::json::value enum_schema() {
    boost::json::object schema;
    schema["type"] = "string";
    constexpr type_info info = reflect::type_info_of<E>();
    if constexpr (!info.description.empty()) schema["description"] = info.description;
    boost::json::array values;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
        [&](auto D) { values.emplace_back(D.name); });
    schema["enum"] = std::move(values);
    return schema;
}

template <class T>
boost::json::value emit(schema_context& c) {
    using namespace reflect;
    constexpr mapped_kind kind = mapped_kind_v<T>;
    static_assert(kind != mapped_kind::unmapped, "forma cannot write a JSON Schema for this type");
    if constexpr (kind == mapped_kind::boolean || kind == mapped_kind::number || kind == mapped_kind::string ||
                  kind == mapped_kind::null) {
        return boost::json::object{{"type", json_type_name(kind)}};
    } else if constexpr (kind == mapped_kind::integer) {
        return integer_schema(std::is_signed_v<T>, sizeof(T));
    } else if constexpr (kind == mapped_kind::enumeration) {
        return enum_schema<T>();
    } else if constexpr (kind == mapped_kind::nullable) {
        return nullable_schema(emit<nullable_element_t<T>>(c));
    } else if constexpr (kind == mapped_kind::sequence) {
        return boost::json::object{{"type", "array"}, {"items", emit<element_t<T>>(c)}};
    } else if constexpr (kind == mapped_kind::fixed_array) {
        constexpr auto n = static_cast<std::uint64_t>(std::tuple_size_v<T>);
        return boost::json::object{
            {"type", "array"}, {"items", emit<element_t<T>>(c)}, {"minItems", n}, {"maxItems", n}};
    } else if constexpr (kind == mapped_kind::string_map) {
        return string_map_schema(emit<typename T::mapped_type>(c), c);
    } else if constexpr (kind == mapped_kind::variant) {
        boost::json::array alternatives;
        [&]<class... Ts>(std::variant<Ts...>*) {
            (alternatives.push_back(emit<Ts>(c)), ...);
        }(static_cast<T*>(nullptr));
        return boost::json::object{{"anyOf", std::move(alternatives)}};
    } else if constexpr (kind == mapped_kind::json_value) {
        return any_value_schema(c);
    } else {
        return struct_schema<T>(c);
    }
}

template <class T>
boost::json::object build_schema(schema_dialect dialect) {
    schema_context c(dialect);
    discover<T>(c);
    boost::json::value body;
    if constexpr (reflect::mapped_kind_v<T> == reflect::mapped_kind::described_struct)
        body = object_schema<T>(c); // the root is written in place, even when recursive
    else
        body = emit<T>(c);
    return finish_root(std::move(body), c);
}

} // namespace forma::json_detail
