#include "credentials.hpp"
#include "../text/ascii.hpp"

#include <algorithm>
#include <array>

namespace forma::net::detail {

bool names_credential(std::string_view name) {
    static constexpr std::array<std::string_view, 8> marks{"auth",     "key",    "token",      "secret",
                                                           "password", "passwd", "credential", "cookie"};
    const std::string lower = text_detail::to_lower(std::string(name));
    return std::any_of(marks.begin(), marks.end(), [&](std::string_view mark) { return lower.find(mark) != std::string::npos; });
}

void credentials::add(std::string_view secret) {
    held_.emplace_back(secret);
    if (const auto space = secret.find_last_of(" \t"); space != std::string_view::npos)
        held_.emplace_back(secret.substr(space + 1));
}

} // namespace forma::net::detail
