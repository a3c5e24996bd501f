#pragma once
// Pretty-printed JSON for the examples and tools/forma-schema (Boost.JSON 1.81 writes only compact JSON).

#include <boost/json/serialize.hpp>
#include <boost/json/string_view.hpp>
#include <boost/json/value.hpp>

#include <cstddef>
#include <ostream>
#include <string>

namespace example {

/** Writes `v` for people: a member or element per line, indented by two; a nested object or
    array stays on one line (compact) when it fits in `one_line_width` columns (0: never).
*/
inline void print_json(std::ostream& out, const boost::json::value& v, std::size_t one_line_width = 90,
                       std::size_t indent = 0) {
    const std::string compact = boost::json::serialize(v);
    if (indent > 0 && compact.size() + indent <= one_line_width) {
        out << compact;
        return;
    }
    const std::string inner(indent + 2, ' ');
    const std::string outer(indent, ' ');
    if (const auto* object = v.if_object(); object && !object->empty()) {
        out << "{\n";
        bool first = true;
        for (const auto& [key, member] : *object) {
            out << (first ? "" : ",\n") << inner << boost::json::serialize(boost::json::string_view(key)) << ": ";
            print_json(out, member, one_line_width, indent + 2);
            first = false;
        }
        out << '\n' << outer << '}';
    } else if (const auto* array = v.if_array(); array && !array->empty()) {
        out << "[\n";
        for (std::size_t i = 0; i < array->size(); ++i) {
            out << (i ? ",\n" : "") << inner;
            print_json(out, (*array)[i], one_line_width, indent + 2);
        }
        out << '\n' << outer << ']';
    } else {
        out << compact;
    }
}

} // namespace example
