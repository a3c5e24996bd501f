#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace forma::redis {

/// The RESP2 reply types.
enum class reply_kind { string, status, integer, nil, error, array };

/// "bulk string", "status", "integer", "nil", "error" or "array", for messages.
std::string_view to_string(reply_kind kind) noexcept;

/** One reply of a Redis server, as hiredis read it.
    `text` holds a bulk string's bytes (any bytes: Redis strings are binary), a status
    ("OK") or an error ("WRONGTYPE Operation against a key ..."); `integer` an integer;
    `elements` an array's replies.
*/
struct reply {
    reply_kind kind = reply_kind::nil;
    std::string text{};
    std::int64_t integer = 0;
    std::vector<reply> elements{};

    bool is_nil() const noexcept { return kind == reply_kind::nil; }
    bool is_error() const noexcept { return kind == reply_kind::error; }

    friend bool operator==(const reply&, const reply&) = default;
};

} // namespace forma::redis
