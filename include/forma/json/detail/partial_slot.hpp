#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace forma::json_detail {

/// The reader's access to partial<T>'s state.
struct partial_access;

struct slot_ops;
struct scanned_number;

/// Where the next value goes in a partial tree: a node and what it accepts. Empty: skip.
struct slot {
    void* node = nullptr;
    const slot_ops* ops = nullptr;
    explicit operator bool() const noexcept { return ops != nullptr; }
};

enum class slot_kind : std::uint8_t { number, boolean, enumeration, string, nullable, sequence, object, whole };

/// What a partial<X> does with the tokens of its value; made once per X.
struct slot_ops {
    slot_kind kind;
    /// nullable: a value starts; null marks it null and returns an empty slot, else the
    /// inner value's slot.
    slot (*resolve)(void* node, bool null);
    /// object and sequence: '{' or '[' arrived; object, sequence and string: the value ended.
    void (*open)(void* node);
    void (*close)(void* node);
    /// object: the slot of member `key` (empty for a member X does not have). `next` is
    /// where to look first, and becomes the index after the member found.
    slot (*member)(void* node, std::string_view key, std::size_t& next);
    /// sequence: a new element's slot.
    slot (*element)(void* node);
    /// string: the opening quote arrived; its text, which the tokenizer appends to as it
    /// arrives (never cutting a UTF-8 sequence).
    std::string* (*text)(void* node);
    /// enumeration: the whole name.
    bool (*enumerator)(void* node, std::string_view name);
    /// number: the number, scanned by JSON's grammar.
    bool (*number)(void* node, const scanned_number& number);
    bool (*boolean)(void* node, bool value);
    /// whole: the value's complete JSON text.
    bool (*whole)(void* node, std::string_view json);
};

} // namespace forma::json_detail
