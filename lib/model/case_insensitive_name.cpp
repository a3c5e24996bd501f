#include <forma/model/detail/case_insensitive_name.hpp>

#include <forma/error.hpp>

#include "../text/ascii.hpp"
#include "json_support.hpp"

namespace forma::model_detail {

std::string nonempty_name(std::string value, std::string_view kind) {
    if (value.empty()) throw error("a " + std::string(kind) + " cannot be empty");
    return value;
}

std::string read_nonempty_name(const boost::json::value& json, std::string_view described_as) {
    if (!json.is_string() || json.get_string().empty())
        fail_type("", "non-empty " + std::string(described_as) + " string", json);
    return std::string(json.get_string());
}

bool ascii_iequals(std::string_view a, std::string_view b) noexcept { return text_detail::iequals(a, b); }

} // namespace forma::model_detail
