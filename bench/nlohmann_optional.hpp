#pragma once

// nlohmann-json 3.11 knows no std::optional: the readers here (read_nlohmann.cpp,
// corpus_nlohmann.cpp) leave one empty when its member is absent or null.

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace forma_bench {

template <class T>
void get_optional(const nlohmann::json& j, const char* key, std::optional<T>& out) {
    const auto it = j.find(key);
    if (it != j.end() && !it->is_null()) out = it->template get<T>();
}

template <class T>
void get_optional(const nlohmann::json& j, const char* key, std::unique_ptr<T>& out) {
    const auto it = j.find(key);
    if (it != j.end() && !it->is_null()) {
        out = std::make_unique<T>();
        it->get_to(*out);
    }
}

} // namespace forma_bench
