#include <forma/agent/structured_format.hpp>

namespace forma::agent_detail {

boost::json::object wrap_in_data_object(const boost::json::object& schema) {
    boost::json::object inner = schema;
    boost::json::object wrapper{{"type", "object"}};
    boost::json::value defs;
    if (auto it = inner.find("$defs"); it != inner.end()) {
        defs = std::move(it->value());
        inner.erase(it);
    }
    wrapper["properties"] = boost::json::object{{"data", std::move(inner)}};
    wrapper["required"] = boost::json::array{"data"};
    wrapper["additionalProperties"] = false;
    if (!defs.is_null()) wrapper["$defs"] = std::move(defs);
    return wrapper;
}

} // namespace forma::agent_detail
