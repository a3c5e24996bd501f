#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma::telemetry {

/// The value of a span or metric attribute: the OTLP scalar kinds and string arrays.
using attribute_value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

struct attribute {
    std::string key;
    attribute_value value;

    friend bool operator==(const attribute&, const attribute&) = default;
};

/// Attributes in the order they were set; keys are unique.
using attribute_list = std::vector<attribute>;

/// The value of `key`, or null.
const attribute_value* find(const attribute_list& attributes, std::string_view key) noexcept;

/// Sets `key` to `value`, replacing an earlier value of the same key.
void set(attribute_list& attributes, std::string_view key, attribute_value value);

} // namespace forma::telemetry
