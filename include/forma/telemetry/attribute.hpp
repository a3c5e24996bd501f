#pragma once

#include <algorithm>
#include <bit>
#include <compare>
#include <cstring>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma::telemetry {

namespace detail {
// Little-endian word of up to eight bytes; one load at run time.
constexpr std::uint64_t word_at(const char* bytes, std::size_t count) noexcept {
    std::uint64_t word = 0;
    if (!std::is_constant_evaluated() && count == 8) {
        std::memcpy(&word, bytes, 8);
        if constexpr (std::endian::native == std::endian::little) return word;
        word = 0;
    }
    for (std::size_t j = 0; j < count; ++j) word |= std::uint64_t(static_cast<unsigned char>(bytes[j])) << (8 * j);
    return word;
}
} // namespace detail

/// The hash of attribute names (computed at compile time for constants) and values: eight
/// bytes a step, mixed by multiplication.
constexpr std::uint64_t hash_text(std::string_view text) noexcept {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ text.size();
    for (std::size_t i = 0; i < text.size(); i += 8) {
        h = (h ^ detail::word_at(text.data() + i, std::min<std::size_t>(8, text.size() - i))) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

/** An attribute's name. Made from a constant (a string literal, a gen_ai::attr name) it
    refers to it without copying, since a span carries some twenty names; made from a
    std::string it owns it, shared by reference count between copies. Either way its
    hash is computed once, so metric aggregation never rehashes names.

        attribute_key a = "service.name";             // refers
        attribute_key b = std::string(runtime_name);   // owns
*/
class attribute_key {
public:
    attribute_key() = default;
    /// A constant name: `consteval` makes sure it outlives every span.
    consteval attribute_key(const char* name) : attribute_key(std::string_view(name)) {}
    consteval attribute_key(std::string_view name)
        : data_(name.data()), size_(static_cast<std::uint32_t>(name.size())), hash_(hash_text(name)) {}
    attribute_key(const std::string& name);

    attribute_key(const attribute_key& other) noexcept;
    attribute_key(attribute_key&& other) noexcept;
    attribute_key& operator=(attribute_key other) noexcept;
    ~attribute_key();

    std::string_view view() const noexcept { return {data_, size_}; }
    operator std::string_view() const noexcept { return view(); }
    std::uint64_t hash() const noexcept { return hash_; }

    friend bool operator==(const attribute_key& a, const attribute_key& b) noexcept {
        return a.hash_ == b.hash_ && a.view() == b.view();
    }
    friend bool operator==(const attribute_key& a, std::string_view b) noexcept { return a.view() == b; }
    friend std::strong_ordering operator<=>(const attribute_key& a, const attribute_key& b) noexcept {
        return a.view() <=> b.view();
    }

private:
    const char* data_ = "";
    std::uint32_t size_ = 0;
    bool owned_ = false; // data_ follows a reference count (see attribute.cpp)
    std::uint64_t hash_ = hash_text("");
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
