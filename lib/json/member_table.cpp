// One loop reads the members of every struct of many members, in declaration order.
#include <forma/json/detail/member_table.hpp>
#include <forma/json/detail/value_reader.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace forma::json_detail {
namespace {

/// Whether member's quoted name is at p, where `room` bytes (at least the name's) can be read.
bool is_name_at(const member_entry& member, const char* p, std::size_t room) noexcept {
    const std::size_t n = member.quoted_name.size();
#if defined(__SSE2__)
    if (room >= 16) {
        const __m128i input = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i head = _mm_loadu_si128(reinterpret_cast<const __m128i*>(member.head.data()));
        const auto same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(input, head)));
        if (n <= 16) {
            const unsigned name_bytes = (1u << n) - 1;
            return (same & name_bytes) == name_bytes;
        }
        return same == 0xFFFF &&
               same_text(std::string_view(p + 16, n - 16), member.quoted_name.substr(16));
    }
#endif
    return same_text(std::string_view(p, n), member.quoted_name);
}

} // namespace

bool read_members_by_table(reader& r, void* object, const member_table& table, const char* start,
                           std::size_t depth, std::uint64_t& seen, std::size_t& from,
                           std::size_t known, bool& more) {
    // Locals, not the references: they stay in registers across the calls below.
    std::uint64_t seen_here = seen;
    std::size_t i = from;
    // A name longer than the limit is left to the general path, which reports it.
    const bool names_fit = table.longest_name <= r.max_string_length();
    bool ok = true;
    for (; i < table.size; ++i) {
        const member_entry& member = table.entries[i];
        if (i != known) {
            const std::size_t n = member.quoted_name.size();
            const auto room = static_cast<std::size_t>(r.end - r.p);
            // Room for the ':', a space and a value's first byte after the name, as
            // read_name_separator_in_room needs.
            if (!names_fit || room < n + 3 || !is_name_at(member, r.p, room)) break;
            r.p += n;
            if (!read_name_separator_in_room(r)) {
                ok = false;
                break;
            }
        }
        if ((seen_here >> i) & 1u) {
            ok = r.fail_duplicate(member.name());
            break;
        }
        seen_here |= std::uint64_t{1} << i;
        const char* const value = r.p;
        if (!member.read(r, object) && !r.step_over(member.name(), start, value, depth)) {
            ok = false;
            break;
        }
        // Inline here (one copy for every struct read by table), not read_member_separator.
        bool more_members = false;
        if (!read_separator(r, '}', more_members, "expected ',' or '}' after a member value")) {
            ok = false;
            break;
        }
        if (!more_members) {
            more = false;
            ++i;
            break;
        }
    }
    seen = seen_here;
    from = i;
    return ok;
}

} // namespace forma::json_detail
