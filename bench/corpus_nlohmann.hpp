#pragma once

// nlohmann-json conversions of the corpus documents (corpus_nlohmann.cpp), found by
// argument-dependent lookup from json::get<T>() and json(value).

#include "corpus_types.hpp"

#include <nlohmann/json_fwd.hpp>

namespace forma_bench {
namespace twitter {
void from_json(const nlohmann::json& j, document& out);
void to_json(nlohmann::json& j, const document& in);
} // namespace twitter
namespace citm {
void from_json(const nlohmann::json& j, document& out);
void to_json(nlohmann::json& j, const document& in);
} // namespace citm
namespace canada {
void from_json(const nlohmann::json& j, document& out);
void to_json(nlohmann::json& j, const document& in);
} // namespace canada
} // namespace forma_bench
