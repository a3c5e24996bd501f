#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma::telemetry {

/** An attribute's name. Made from a constant (a string literal, a gen_ai::attr name) it
    refers to it without copying, since a span carries some twenty names; made from a
    std::string it owns it.

        attribute_key a = "service.name";             // refers
        attribute_key b = std::string(runtime_name);   // owns
*/
class attribute_key {
public:
    attribute_key() = default;
    /// A constant name: `consteval` makes sure it outlives every span.
    consteval attribute_key(const char* name) : view_(name) {}
    consteval attribute_key(std::string_view name) : view_(name) {}
    attribute_key(std::string name)
        : owned_(std::make_shared<const std::string>(std::move(name))), view_(*owned_) {}

    std::string_view view() const noexcept { return view_; }
    operator std::string_view() const noexcept { return view(); }

    friend bool operator==(const attribute_key& a, const attribute_key& b) noexcept { return a.view() == b.view(); }
    friend bool operator==(const attribute_key& a, std::string_view b) noexcept { return a.view() == b; }
    friend std::strong_ordering operator<=>(const attribute_key& a, const attribute_key& b) noexcept {
        return a.view() <=> b.view();
    }

private:
    std::shared_ptr<const std::string> owned_{}; // shared: copies of a span copy no names
    std::string_view view_{};
};

/// The value of a span or metric attribute: the OTLP scalar kinds and string arrays.
using attribute_value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

struct attribute {
    attribute_key key;
    attribute_value value;

    friend bool operator==(const attribute&, const attribute&) = default;
};

/// Attributes in the order they were set; keys are unique.
using attribute_list = std::vector<attribute>;

/// The value of `key`, or null.
const attribute_value* find(const attribute_list& attributes, std::string_view key) noexcept;

/// Sets `key` to `value`, replacing an earlier value of the same key.
void set(attribute_list& attributes, attribute_key key, attribute_value value);

} // namespace forma::telemetry
