#pragma once

#include <forma/json/detail/reader.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/mapped_kind.hpp>
#include <forma/reflect/type_traits.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace forma::json_detail {

/** Output buffer and error state of one to_json call. Errors (NaN, invalid
    UTF-8, an enum value with no name) unwind like the reader's, adding the path.

    It writes through a cursor into `out` grown ahead of it (one capacity check per
    value, not per character) and cuts `out` back to what was written when it ends.
*/
class writer {
public:
    explicit writer(std::string& out) noexcept
        : out_(out), cursor_(out.data() + out.size()), limit_(cursor_), start_(out.size()) {}
    writer(const writer&) = delete;
    writer& operator=(const writer&) = delete;
    ~writer() { out_.resize(static_cast<std::size_t>(cursor_ - out_.data())); }

    /// Room for `n` more bytes at the returned cursor; advance() past what was written.
    char* room(std::size_t n) {
        if (static_cast<std::size_t>(limit_ - cursor_) < n) grow(n);
        return cursor_;
    }
    void advance(char* to) noexcept { cursor_ = to; }

    void put(char c) {
        *room(1) = c;
        ++cursor_;
    }
    void put(std::string_view s) {
        char* at = room(s.size());
        std::memcpy(at, s.data(), s.size());
        cursor_ = at + s.size();
    }

    /// Appends `s` quoted and escaped; false when it is not valid UTF-8.
    bool write_string(std::string_view s);

    bool fail(std::string reason);
    bool push_key(std::string_view key);
    bool push_index(std::size_t index);
    /// The error, with `out` cut back to what it held before this writer.
    json_error take_error();

private:
    void grow(std::size_t n);

    std::string& out_;
    char* cursor_;
    char* limit_;
    std::size_t start_; // out's size before this writer: growth is in proportion to what it wrote
    std::string reason_;
    std::vector<path_segment> path_;
};

template <class T>
bool write_value(writer& w, const T& v);

/// Writes any JSON value: its strings escaped as every string (invalid UTF-8 is an error),
/// its numbers as every number (a double that is not finite is an error).
bool write_json_value(writer& w, const boost::json::value& v);

/** Writes the shortest text that reads back as the finite `v`, as std::to_chars without a
    format writes it (the same characters), and returns its end: at most 24 bytes of text, in
    a buffer of shortest_text_room bytes at `out` (the rest is scratch). Dragonbox's digits:
    faster than std::to_chars.
*/
inline constexpr std::size_t shortest_text_room = 48;
char* shortest_text(char* out, double v) noexcept;
char* shortest_text(char* out, float v) noexcept;

template <class F>
bool write_float(writer& w, F v) {
    if (!std::isfinite(v)) return w.fail("JSON has no representation for " + std::to_string(v));
    if constexpr (std::is_same_v<F, double> || std::is_same_v<F, float>) {
        w.advance(shortest_text(w.room(shortest_text_room), v));
    } else {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        w.put(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    }
    return true;
}

template <class I>
void write_integer(writer& w, I v) {
    constexpr std::size_t most_digits = std::numeric_limits<I>::digits10 + 3; // and a sign
    char* at = w.room(most_digits);
    w.advance(std::to_chars(at, at + most_digits, v).ptr);
}

template <class E>
bool write_enum(writer& w, E v) {
    const char* name = nullptr;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
        if (!name && D.value == v) name = D.name;
    });
    if (!name)
        return w.fail("enum value " +
                      std::to_string(static_cast<std::underlying_type_t<E>>(v)) + " has no name");
    w.put('"');
    w.put(name); // enumerator names are identifiers: nothing to escape
    w.put('"');
    return true;
}

template <class R>
bool write_range(writer& w, const R& range) {
    w.put('[');
    std::size_t i = 0;
    for (const auto& e : range) {
        if (i) w.put(',');
        if (!write_value(w, static_cast<const typename R::value_type&>(e))) return w.push_index(i);
        ++i;
    }
    w.put(']');
    return true;
}

template <class M>
bool write_map(writer& w, const M& map) {
    w.put('{');
    bool first = true;
    for (const auto& [key, value] : map) {
        if (!first) w.put(',');
        first = false;
        if (!w.write_string(key)) return false;
        w.put(':');
        if (!write_value(w, value)) return w.push_key(key);
    }
    w.put('}');
    return true;
}

template <class T>
bool write_struct(writer& w, const T& obj) {
    using members = reflect::members_of<T>;
    w.put('{');
    bool ok = true;
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<boost::mp11::mp_size<members>::value>>([&](auto I) {
        if (!ok) return;
        // The name needs no escape: FORMA_DESCRIBE_FIELDS checks a json_name.
        using key = reflect::detail::quoted_json_name<T, I, I != 0, true>;
        w.put(std::string_view(key::text.data(), key::text.size()));
        if (!write_value(w, obj.*boost::mp11::mp_at_c<members, I>::pointer)) ok = w.push_key(key::name);
    });
    w.put('}');
    return ok;
}

template <class T>
bool write_value(writer& w, const T& v) {
    using reflect::mapped_kind;
    constexpr mapped_kind kind = reflect::mapped_kind_v<T>;
    static_assert(kind != mapped_kind::unmapped, "forma cannot write this type as JSON");
    if constexpr (kind == mapped_kind::boolean) {
        w.put(v ? std::string_view("true") : std::string_view("false"));
        return true;
    } else if constexpr (kind == mapped_kind::integer) {
        write_integer(w, v);
        return true;
    } else if constexpr (kind == mapped_kind::number) {
        return write_float(w, v);
    } else if constexpr (kind == mapped_kind::string) {
        return w.write_string(v);
    } else if constexpr (kind == mapped_kind::null) {
        w.put("null");
        return true;
    } else if constexpr (kind == mapped_kind::enumeration) {
        return write_enum(w, v);
    } else if constexpr (kind == mapped_kind::nullable) {
        if (!v) {
            w.put("null");
            return true;
        }
        return write_value(w, *v);
    } else if constexpr (reflect::is_array_kind(kind)) {
        return write_range(w, v);
    } else if constexpr (kind == mapped_kind::string_map) {
        return write_map(w, v);
    } else if constexpr (kind == mapped_kind::variant) {
        return std::visit([&](const auto& alternative) { return write_value(w, alternative); }, v);
    } else if constexpr (kind == mapped_kind::json_value) {
        return write_json_value(w, v);
    } else {
        return write_struct(w, v);
    }
}

} // namespace forma::json_detail
