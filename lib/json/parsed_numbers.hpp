#pragma once
// Numbers in values Boost.JSON parsed, made what the text meant.

#include <forma/json/detail/reader.hpp>

#include <boost/json/value.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace forma::json_detail {

/** Boost.JSON 1.81 reads `0e400` as NaN (0 × ∞) and `1e400` as infinity, and writes them
    back as `NaN` and `Infinity`, which are not JSON. Sets each NaN to the 0 its text
    means, and returns the JSON Pointer of the first number too large for a double,
    which has no value to become. Walks with its own stack: values may nest deeply. */
inline std::optional<std::string> repair_parsed_numbers(boost::json::value& root) {
    auto repair = [](boost::json::value& v) {
        double* d = v.if_double();
        if (d && std::isnan(*d)) *d = 0.0;
        return !(d && std::isinf(*d));
    };
    if (!repair(root)) return std::string();
    struct frame {
        boost::json::value* container;
        std::size_t next = 0;
    };
    std::vector<frame> open;
    if (root.is_structured()) open.push_back({&root});
    while (!open.empty()) {
        frame& f = open.back();
        auto* object = f.container->if_object();
        const std::size_t size = object ? object->size() : f.container->get_array().size();
        if (f.next == size) {
            open.pop_back();
            continue;
        }
        boost::json::value& child =
            object ? (object->begin() + f.next)->value() : f.container->get_array()[f.next];
        ++f.next;
        if (!repair(child)) {
            std::vector<json_detail::path_segment> innermost_first;
            for (auto it = open.rbegin(); it != open.rend(); ++it) {
                const std::size_t at = it->next - 1;
                if (const auto* o = it->container->if_object()) innermost_first.push_back({std::string((o->begin() + at)->key())});
                else innermost_first.push_back({{}, at, true});
            }
            return json_detail::json_pointer(innermost_first);
        }
        if (child.is_structured()) open.push_back({&child});
    }
    return std::nullopt;
}

} // namespace forma::json_detail
