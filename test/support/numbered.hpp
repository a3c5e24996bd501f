#pragma once
// Names such as "d7" for generated schemas.

#include <string>
#include <string_view>

namespace forma_test {

/// `prefix` followed by `n`. Not `prefix + std::to_string(n)`: GCC 12 warns falsely
/// (-Wrestrict) on that operator+ once inlined.
inline std::string numbered(std::string_view prefix, int n) {
    std::string name(prefix);
    name += std::to_string(n);
    return name;
}

} // namespace forma_test
