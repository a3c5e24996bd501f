#include <forma/telemetry/attribute.hpp>

#include <algorithm>

namespace forma::telemetry {

const attribute_value* find(const attribute_list& attributes, std::string_view key) noexcept {
    auto it = std::find_if(attributes.begin(), attributes.end(), [&](const attribute& a) { return a.key == key; });
    return it == attributes.end() ? nullptr : &it->value;
}

void set(attribute_list& attributes, attribute_key key, attribute_value value) {
    auto it = std::find_if(attributes.begin(), attributes.end(), [&](const attribute& a) { return a.key == key; });
    if (it != attributes.end())
        it->value = std::move(value);
    else
        attributes.push_back({std::move(key), std::move(value)});
}

} // namespace forma::telemetry
