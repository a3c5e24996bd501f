#pragma once

// Each library's way to write a value as JSON text into a fresh string, every one in its own
// translation unit like the readers (readers.hpp). They throw when the value cannot be written.

#include "catalog_types.hpp"
#include "corpus_types.hpp"

#include <string>

namespace forma_bench {

template <class T>
std::string write_forma(const T& value);

template <class T>
std::string write_boost_json(const T& value);

template <class T>
std::string write_nlohmann(const T& value);

} // namespace forma_bench
