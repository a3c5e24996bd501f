#pragma once

// Each library's way to read a payload into a fresh value. Every reader lives in its own
// translation unit so that all four pay the same call boundary, and the comparison
// libraries stay out of forma's code. They throw when the text does not decode.
//
// `json` must keep input_padding bytes of spare capacity (see payloads.hpp): simdjson
// reads past the end. The others ignore it.

#include "catalog_types.hpp"
#include "corpus_types.hpp"

#include <string>

namespace forma_bench {

template <class T>
T read_forma(const std::string& json);

template <class T>
T read_boost_json(const std::string& json);

template <class T>
T read_nlohmann(const std::string& json);

template <class T>
T read_simdjson(const std::string& json);

} // namespace forma_bench
