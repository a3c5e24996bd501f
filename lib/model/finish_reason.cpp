#include <forma/model/finish_reason.hpp>

#include <forma/error.hpp>

#include "../text/ascii.hpp"
#include "json_support.hpp"

namespace forma {

finish_reason::finish_reason(std::string value) : value_(std::move(value)) {
    if (value_.empty()) throw error("a finish_reason cannot be empty");
}

bool operator==(const finish_reason& a, const finish_reason& b) noexcept {
    return text_detail::iequals(a.value_, b.value_);
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const finish_reason& reason) {
    json = reason.value();
}

finish_reason tag_invoke(boost::json::value_to_tag<finish_reason>, const boost::json::value& json) {
    if (!json.is_string() || json.get_string().empty())
        model_detail::fail_type("", "non-empty finish reason string", json);
    return finish_reason(std::string(json.get_string()));
}

} // namespace forma
