#pragma once
// A struct's members as a table, read by one loop for every struct of many members.

#include <forma/json/detail/reader.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace forma::json_detail {

/// One member of a struct that read_members_by_table reads: its name as JSON text has it, in
/// quotes, and the reader of its value.
struct member_entry {
    bool (*read)(reader&, void* object);
    std::string_view quoted_name;
    /// quoted_name's first 16 bytes, zero-padded, compared with the input as one block.
    std::array<char, 16> head{};

    constexpr member_entry(bool (*read_member)(reader&, void*), std::string_view quoted) noexcept
        : read(read_member), quoted_name(quoted) {
        for (std::size_t i = 0; i < head.size() && i < quoted.size(); ++i)
            head[i] = quoted[i];
    }

    std::string_view name() const noexcept { return quoted_name.substr(1, quoted_name.size() - 2); }
};

/// A struct's members in declaration order, and the length of its longest name (unquoted).
struct member_table {
    const member_entry* entries;
    std::size_t size;
    std::size_t longest_name;
};

/** struct_reader::read_in_order for a struct of many members, as one loop over its table for
    every such struct: the struct's own code is then its members' value reads alone. Each
    member's steps inline in a reader of its own made twitter's 40-member user 25 KB of code,
    and user and status together outgrew the 32 KB instruction cache; through the table, a read
    of twitter.json misses it 23k times, not 75k. Its parameters are read_in_order's; `seen`
    has a bit for each member.
*/
bool read_members_by_table(reader& r, void* object, const member_table& table, const char* start,
                           std::size_t depth, std::uint64_t& seen, std::size_t& from,
                           std::size_t known, bool& more);

} // namespace forma::json_detail
