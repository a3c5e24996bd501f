// forma_schema_corpus: prints, for every root of the oracle corpus, its schema in both
// dialects and its samples as to_json text, for check_schemas.py to judge with an
// independent JSON Schema implementation. Also checks here that every sample survives
// from_json(to_json(sample)) and that the corpus covers every mapping forma supports;
// exits non-zero, naming the type, when either fails.

#include "corpus_types.hpp"

#include <forma/json.hpp>

#include <boost/describe/bases.hpp>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>
#include <boost/mp11/algorithm.hpp>

#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace {

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_list : std::false_type {};
template <class T, class A>
struct is_list<std::list<T, A>> : std::true_type {};
template <class T>
struct is_ordered_map : std::false_type {};
template <class V, class C, class A>
struct is_ordered_map<std::map<std::string, V, C, A>> : std::true_type {};

/// The mappings a type uses, found by walking it: "int8", "vector", "recursion through
/// vector", "base", "pattern", ... (recursive structs are walked once).
class mapping_census {
public:
    std::set<std::string> kinds;

    template <class T>
    void visit_root() {
        visit<T>("");
        kinds.insert("root " + std::string(kind_of<T>()));
    }

private:
    std::vector<const void*> open_;
    std::set<const void*> done_;

    template <class T>
    static const void* id() {
        static const char tag = 0;
        return &tag;
    }

    template <class T>
    static const char* kind_of() {
        using namespace forma::reflect;
        if constexpr (is_described_struct_v<T>) return "struct";
        else if constexpr (is_described_enum_v<T>) return "enum";
        else if constexpr (is_integer_v<T>) return "integer";
        else if constexpr (std::is_same_v<T, std::string>) return "string";
        else if constexpr (is_optional_v<T>) return "optional";
        else if constexpr (is_sequence_v<T> || is_std_array_v<T>) return "array";
        else if constexpr (is_string_map_v<T>) return "map";
        else if constexpr (is_variant_v<T>) return "variant";
        else return "other";
    }

    void record_field(const forma::field_info& f) {
        if (!f.description.empty()) kinds.insert("field description");
        if (f.minimum) kinds.insert("minimum");
        if (f.maximum) kinds.insert("maximum");
        if (f.exclusive_minimum) kinds.insert("exclusive_minimum");
        if (f.exclusive_maximum) kinds.insert("exclusive_maximum");
        if (f.min_length) kinds.insert("min_length");
        if (f.max_length) kinds.insert("max_length");
        if (f.min_items) kinds.insert("min_items");
        if (f.max_items) kinds.insert("max_items");
        if (!f.pattern.empty()) kinds.insert("pattern");
        if (!f.format.empty()) kinds.insert("format");
    }

    // `via`: the wrappers between the enclosing struct and T, e.g. "optional/unique_ptr".
    template <class T>
    void visit(const std::string& via) {
        using namespace forma::reflect;
        auto wrap = [&](const char* kind) {
            kinds.insert(kind);
            return via.empty() ? std::string(kind) : via + "/" + kind;
        };
        if constexpr (std::is_same_v<T, bool>) {
            kinds.insert("bool");
        } else if constexpr (is_integer_v<T>) {
            kinds.insert((std::is_signed_v<T> ? "int" : "uint") + std::to_string(sizeof(T) * 8));
        } else if constexpr (std::is_same_v<T, float>) {
            kinds.insert("float");
        } else if constexpr (std::is_same_v<T, double>) {
            kinds.insert("double");
        } else if constexpr (std::is_same_v<T, std::string>) {
            kinds.insert("string");
        } else if constexpr (std::is_same_v<T, std::monostate>) {
            kinds.insert("monostate");
        } else if constexpr (is_described_enum_v<T>) {
            kinds.insert("enum");
            if (!type_info_of<T>().description.empty()) kinds.insert("enum description");
        } else if constexpr (is_optional_v<T>) {
            visit<typename T::value_type>(wrap("optional"));
        } else if constexpr (is_unique_ptr_v<T>) {
            visit<typename T::element_type>(wrap("unique_ptr"));
        } else if constexpr (is_vector<T>::value) {
            visit<typename T::value_type>(wrap("vector"));
        } else if constexpr (is_list<T>::value) {
            visit<typename T::value_type>(wrap("list"));
        } else if constexpr (is_sequence_v<T>) {
            visit<typename T::value_type>(wrap("deque"));
        } else if constexpr (is_std_array_v<T>) {
            visit<typename T::value_type>(wrap("array"));
        } else if constexpr (is_string_map_v<T>) {
            const bool ordered = is_ordered_map<T>::value;
            visit<typename T::mapped_type>(wrap(ordered ? "map" : "unordered_map"));
        } else if constexpr (is_variant_v<T>) {
            const std::string inner = wrap("variant");
            [&]<class... Ts>(std::variant<Ts...>*) {
                (visit<Ts>(inner), ...);
            }(static_cast<T*>(nullptr));
        } else {
            static_assert(is_described_struct_v<T>, "the census does not know this type");
            for (const void* o : open_)
                if (o == id<T>()) {
                    kinds.insert("recursion through " + via);
                    return;
                }
            if (!open_.empty()) kinds.insert("nested struct");
            if (!done_.insert(id<T>()).second) return;
            constexpr forma::type_info info = type_info_of<T>();
            if (!info.name.empty()) kinds.insert("type name");
            if (!info.description.empty()) kinds.insert("type description");
            if (boost::mp11::mp_size<boost::describe::describe_bases<
                    T, boost::describe::mod_any_access>>::value != 0)
                kinds.insert("base");
            open_.push_back(id<T>());
            boost::mp11::mp_for_each<members_of<T>>([&](auto D) {
                record_field(field_info_of<T, decltype(D)>());
                visit<member_type_t<decltype(D.pointer)>>("");
            });
            open_.pop_back();
        }
    }
};

// Everything the corpus must exercise (see the forma README's list of mappings).
const std::vector<std::string> required_kinds = {
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float",
    "double", "string", "enum", "enum description", "optional", "unique_ptr", "vector", "list",
    "deque", "array", "map", "unordered_map", "variant", "monostate", "nested struct", "base",
    "recursion through vector", "recursion through optional/unique_ptr",
    "recursion through unique_ptr", "field description", "type description", "type name",
    "minimum", "maximum", "exclusive_minimum", "exclusive_maximum", "min_length", "max_length",
    "min_items", "max_items", "pattern", "format", "root struct", "root enum", "root integer",
    "root string", "root array", "root optional", "root map", "root variant"};

/// Why `sample` does not survive to_json then from_json, or "" when it does.
template <class T>
std::string round_trip_error(const T& sample, std::string& json) {
    try {
        json = forma::to_json(sample);
    } catch (const std::exception& e) {
        return std::string("to_json threw: ") + e.what();
    }
    try {
        if (!(forma::from_json<T>(json) == sample)) return "from_json(to_json(sample)) != sample";
    } catch (const std::exception& e) {
        return std::string("from_json threw: ") + e.what();
    }
    return {};
}

template <class T>
boost::json::object corpus_entry(mapping_census& all, bool& ok) {
    const std::string type(forma::reflect::type_name<T>());
    mapping_census own;
    own.visit_root<T>();
    all.visit_root<T>();

    boost::json::object entry;
    entry["type"] = type;
    entry["is_struct"] = forma::reflect::is_described_struct_v<T>;
    entry["contains_map"] = own.kinds.count("map") + own.kinds.count("unordered_map") != 0;
    entry["schemas"] = boost::json::object{
        {"json_schema_2020_12",
         forma::json_schema<T>({.dialect = forma::schema_dialect::json_schema_2020_12})},
        {"openai_strict",
         forma::json_schema<T>({.dialect = forma::schema_dialect::openai_strict})}};

    boost::json::array samples;
    std::size_t index = 0;
    for (const T& sample : oracle::samples<T>::make()) {
        std::string json;
        const std::string error = round_trip_error(sample, json);
        boost::json::object s{{"json", json}};
        if (error.empty()) {
            s["round_trip_error"] = nullptr;
        } else {
            s["round_trip_error"] = error;
            std::cerr << "round trip failed: " << type << " sample " << index << ": " << error
                      << "\n  to_json: " << json << '\n';
            ok = false;
        }
        samples.push_back(std::move(s));
        ++index;
    }
    entry["samples"] = std::move(samples);
    return entry;
}

} // namespace

int main() {
    bool ok = true;
    mapping_census all;
    boost::json::array corpus;
    using roots = boost::mp11::mp_transform<boost::mp11::mp_identity, oracle::corpus_roots>;
    boost::mp11::mp_for_each<roots>([&](auto identity) {
        using T = typename decltype(identity)::type;
        try {
            corpus.push_back(corpus_entry<T>(all, ok));
        } catch (const std::exception& e) {
            std::cerr << "failed on " << forma::reflect::type_name<T>() << ": " << e.what() << '\n';
            ok = false;
        }
    });

    boost::json::array missing;
    for (const std::string& kind : required_kinds)
        if (!all.kinds.count(kind)) {
            std::cerr << "corpus does not cover: " << kind << '\n';
            missing.emplace_back(kind);
            ok = false;
        }

    boost::json::object document{{"corpus", std::move(corpus)}, {"uncovered", std::move(missing)}};
    std::cout << boost::json::serialize(document) << '\n';
    return ok ? 0 : 1;
}
