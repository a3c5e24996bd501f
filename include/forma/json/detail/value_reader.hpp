#pragma once

#include <forma/json/detail/constraints.hpp>
#include <forma/json/detail/element_stage.hpp>
#include <forma/json/detail/member_table.hpp>
#include <forma/json/detail/reader.hpp>
#include <forma/reflect/field_info.hpp>
#include <forma/reflect/mapped_kind.hpp>
#include <forma/reflect/type_name.hpp>
#include <forma/reflect/type_traits.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <bitset>
#include <cfloat>
#include <charconv>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

namespace forma::json_detail {

template <class T>
bool read_value(reader& r, T& out);

template <class I>
constexpr std::string_view integer_name() {
    constexpr bool s = std::is_signed_v<I>;
    switch (sizeof(I)) {
    case 1: return s ? "int8_t" : "uint8_t";
    case 2: return s ? "int16_t" : "uint16_t";
    case 4: return s ? "int32_t" : "uint32_t";
    default: return s ? "int64_t" : "uint64_t";
    }
}

/// The JSON kinds a type accepts, for "expected ..." messages.
template <class T>
std::string kind_name();

template <class V>
struct variant_kinds;
template <class... Ts>
struct variant_kinds<std::variant<Ts...>> {
    static std::string get() {
        std::string out;
        ((out += (out.empty() ? "" : " or "), out += kind_name<Ts>()), ...);
        return out;
    }
};

template <class T>
std::string kind_name() {
    using reflect::mapped_kind;
    constexpr mapped_kind kind = reflect::mapped_kind_v<T>;
    if constexpr (kind == mapped_kind::nullable) return kind_name<reflect::nullable_element_t<T>>() + " or null";
    else if constexpr (kind == mapped_kind::variant) return variant_kinds<T>::get();
    else if constexpr (kind == mapped_kind::json_value) return "any JSON value";
    else return std::string(reflect::json_type_name(kind));
}

/// Whether a value starting with `c` can be of type T (to pick variant alternatives).
template <class T>
constexpr bool accepts_first_char(char c) {
    using reflect::mapped_kind;
    constexpr mapped_kind kind = reflect::mapped_kind_v<T>;
    if constexpr (kind == mapped_kind::boolean) return c == 't' || c == 'f';
    else if constexpr (reflect::is_number_kind(kind)) return c == '-' || (c >= '0' && c <= '9');
    else if constexpr (kind == mapped_kind::string || kind == mapped_kind::enumeration) return c == '"';
    else if constexpr (kind == mapped_kind::described_struct) return c == '{';
    else if constexpr (kind == mapped_kind::string_map) return c == '{' || c == '['; // or the strict pair form
    else if constexpr (reflect::is_array_kind(kind)) return c == '[';
    else if constexpr (kind == mapped_kind::null) return c == 'n';
    else if constexpr (kind == mapped_kind::json_value) return true;
    else if constexpr (kind == mapped_kind::nullable)
        return c == 'n' || accepts_first_char<reflect::nullable_element_t<T>>(c);
    else
        return []<class... Ts>(std::variant<Ts...>*, char ch) {
            return (accepts_first_char<Ts>(ch) || ...);
        }(static_cast<T*>(nullptr), c);
}

/// a == b, inline with word-sized loads: for short member names a call to memcmp cost
/// more than the comparison itself.
inline bool same_text(std::string_view a, std::string_view b) noexcept {
    std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* x = a.data();
    const char* y = b.data();
    auto load8 = [](const char* q) {
        std::uint64_t v;
        std::memcpy(&v, q, 8);
        return v;
    };
    auto load4 = [](const char* q) {
        std::uint32_t v;
        std::memcpy(&v, q, 4);
        return v;
    };
    if (n >= 8) {
        for (; n > 8; x += 8, y += 8, n -= 8)
            if (load8(x) != load8(y)) return false;
        return load8(x + n - 8) == load8(y + n - 8); // the last 8 bytes, overlapping
    }
    if (n >= 4) return load4(x) == load4(y) && load4(x + n - 4) == load4(y + n - 4);
    for (std::size_t i = 0; i < n; ++i)
        if (x[i] != y[i]) return false;
    return true;
}

inline bool read_literal(reader& r, const char* literal, std::size_t n) {
    if (static_cast<std::size_t>(r.end - r.p) >= n && std::memcmp(r.p, literal, n) == 0) {
        r.p += n;
        return true;
    }
    return false;
}

inline bool read_bool(reader& r, bool& out) {
    if (read_literal(r, "true", 4)) return out = true, true;
    if (read_literal(r, "false", 5)) return out = false, true;
    return r.fail_type("boolean");
}

/// Reads any JSON value into `out` (in `out`'s storage), checked as skip_value checks one.
bool read_json_value(reader& r, boost::json::value& out);

/// True when a number that from_chars found out of range is too small, not too large.
bool is_underflow(std::string_view number_text) noexcept;

/** The binary floating-point value nearest `significand` × 10^`exponent` (Eisel and Lemire's
    algorithm; `text`, the number as written, decides the rare cases it cannot, and every
    number whose significand was cut at 19 digits, `whole` false). False when the value is
    too large for F; one too small for it is ±0.
*/
bool decimal_to_binary(std::string_view text, bool negative, std::uint64_t significand, std::int64_t exponent,
                       bool whole, double& out) noexcept;
bool decimal_to_binary(std::string_view text, bool negative, std::uint64_t significand, std::int64_t exponent,
                       bool whole, float& out) noexcept;

/** The float or double nearest a scanned number; false when it is too large for F. Most
    numbers are exact in Clinger's fast path (a significand of at most 2^53 and a power of ten
    of at most 22, each an exact double, and one IEEE operation rounding correctly); the others
    go to decimal_to_binary.
*/
template <class F>
bool to_floating(const scanned_number& number, F& out) noexcept {
    if constexpr (std::is_same_v<F, long double>) { // no format of Eisel-Lemire's here: the library's own
        const auto result = std::from_chars(number.text.data(), number.text.data() + number.text.size(), out);
        if (result.ec != std::errc::result_out_of_range) return true;
        out = number.negative ? -0.0L : 0.0L;
        return is_underflow(number.text);
    } else {
#if FLT_EVAL_METHOD == 0 // double arithmetic in double precision, not x87's extended one
        if constexpr (std::is_same_v<F, double>) {
            static constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
            const std::int64_t e = number.exponent;
            if (number.digits <= 19 && number.significand <= (std::uint64_t{1} << 53) && e >= -22 && e <= 22) {
                const auto value = static_cast<double>(number.significand);
                const double magnitude = e < 0 ? value / powers_of_ten[-e] : value * powers_of_ten[e];
                out = number.negative ? -magnitude : magnitude;
                return true;
            }
        }
#endif
        return decimal_to_binary(number.text, number.negative, number.significand, number.exponent,
                                 number.digits <= 19, out);
    }
}

template <class F>
bool read_float(reader& r, F& out) {
    const char c = *r.p;
    if (c != '-' && static_cast<unsigned>(c - '0') > 9) return r.fail_type("number");
    scanned_number number;
    if (!r.scan_number(number)) return false;
    if (to_floating(number, out)) return true;
    r.p = number.text.data();
    return r.fail(std::string(number.text) + " does not fit in " +
                  (std::is_same_v<F, float> ? "float" : std::is_same_v<F, double> ? "double" : "long double"));
}

/// Reads an integer given in any JSON number form with no fractional part (2, -7, 2.0, 2e3)
/// as a sign and a magnitude; `type_name` is for the message when it exceeds 64 bits.
bool read_integral_number(reader& r, std::string_view type_name, bool& negative,
                          std::uint64_t& magnitude);

/// The integer I of sign `negative` and magnitude `magnitude` into `out`; false when I cannot hold it.
template <class I>
[[gnu::always_inline]] inline bool integer_in_range(bool negative, std::uint64_t magnitude, I& out) noexcept {
    constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<I>::max());
    if constexpr (std::is_signed_v<I>) {
        if (negative) {
            if (magnitude > max + 1) return false;
            out = static_cast<I>(-static_cast<std::int64_t>(magnitude - 1) - 1);
            return true;
        }
    } else {
        if (negative && magnitude != 0) return false;
    }
    if (magnitude > max) return false;
    out = static_cast<I>(magnitude);
    return true;
}

template <class I>
bool read_integer(reader& r, I& out) {
    const char* start = r.p;
    const bool negative = *start == '-';
    const char* digits = start + negative;
    const char* q = digits;
    std::uint64_t v = 0;
    // Fast path: up to 19 plain digits, no leading zero, no fraction or exponent.
    q = accumulate_digits(q, r.end, v);
    const bool plain = q != digits && q - digits <= 19 && !(*digits == '0' && q - digits > 1) &&
                       (q == r.end || (*q != '.' && *q != 'e' && *q != 'E'));
    bool neg = negative;
    if (plain) {
        r.p = q;
    } else {
        if (!negative && static_cast<unsigned>(*start - '0') > 9) return r.fail_type("integer");
        if (!read_integral_number(r, integer_name<I>(), neg, v))
            return false;
    }
    if (integer_in_range(neg, v, out)) return true;
    const std::string text(start, r.p);
    r.p = start;
    return r.fail(text + " does not fit in " + std::string(integer_name<I>()));
}

inline bool read_string_value(reader& r, std::string& out) {
    if (*r.p != '"') return r.fail_type("string");
    return r.read_string(out);
}

template <class E>
std::string enumerator_list() {
    std::string out;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
        out += out.empty() ? "\"" : ", \"";
        out += D.name;
        out += '"';
    });
    return out;
}

template <class E>
bool read_enum(reader& r, E& out) {
    if (*r.p != '"') return r.fail_type("one of " + enumerator_list<E>());
    const char* start = r.p;
    std::string_view key;
    bool from_scratch;
    if (!r.read_key(key, from_scratch)) return false;
    bool found = false;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto D) {
        if (!found && key == D.name) {
            out = D.value;
            found = true;
        }
    });
    if (found) return true;
    const std::string reason = quoted_excerpt(key) + " is not one of " + enumerator_list<E>();
    r.p = start;
    return r.fail(reason);
}

template <class N>
bool read_nullable(reader& r, N& out) {
    using U = reflect::nullable_element_t<N>;
    if (*r.p == 'n') {
        if (read_literal(r, "null", 4)) {
            out = N{};
            return true;
        }
    }
    if constexpr (reflect::is_optional_v<N>) {
        out.emplace();
    } else {
        out = std::make_unique<U>();
    }
    return read_value(r, *out);
}

/// After an element or member: consumes ',' (returns true with `more`) or `close`. The common
/// forms after a value go first: ',' then the next value, ", ", or a line break and the
/// indentation expected.
[[gnu::always_inline]] inline bool read_separator(reader& r, char close, bool& more, const char* context) {
    if (r.end - r.p >= 3 && *r.p == ',') [[likely]] {
        more = true;
        const auto next = static_cast<unsigned char>(r.p[1]);
        if (next > ' ') {
            r.p += 1;
            return true;
        }
        if (next == ' ' && static_cast<unsigned char>(r.p[2]) > ' ') {
            r.p += 2;
            return true;
        }
        ++r.p;
        r.skip_blank_after(r.depth());
        return true;
    }
    r.skip_indentation(r.depth() - 1);
    if (r.p != r.end) {
        if (*r.p == ',') {
            ++r.p;
            r.skip_indentation(r.depth());
            more = true;
            return true;
        }
        if (*r.p == close) {
            ++r.p;
            r.leave();
            more = false;
            return true;
        }
    }
    return r.fail_syntax(context);
}

/** read_separator after a member's value: 1 when a member follows, 0 at the object's end, -1 on
    an error. Out of line: it is in every member's code of every struct, and inline it made
    twitter's user reader 46 KB, larger than the instruction cache.
*/
[[gnu::noinline]] inline int read_member_separator(reader& r) {
    bool more = false;
    if (!read_separator(r, '}', more, "expected ',' or '}' after a member value")) return -1;
    return more ? 1 : 0;
}

/// Consumes '[' or '{' and reports whether the container is empty.
[[gnu::always_inline]] inline bool open_container(reader& r, char close, bool& empty) {
    if (!r.enter()) return false;
    ++r.p;
    r.skip_indentation(r.depth());
    empty = r.p != r.end && *r.p == close;
    if (empty) {
        ++r.p;
        r.leave();
    }
    return true;
}

/** read_sequence's first elements for an empty vector, read into an element_stage and then
    moved into `out`; `i` ends at the index of the next element. False on an error (`out` then
    holds the elements read, as read_sequence leaves it); `more` when the array goes on past the
    staged elements, `out` then having room for as many again.
*/
template <class V>
bool read_staged_elements(reader& r, V& out, const char* start, std::size_t depth, std::size_t& i, bool& more) {
    using E = typename V::value_type;
    constexpr std::size_t staged = staged_elements<E>;
    element_stage<E, staged> stage;
    for (;; ++i) {
        const char* const value = r.p;
        const bool read = (read_value(r, stage.emplace_back()) || r.step_over(i, start, value, depth)) &&
                          read_separator(r, ']', more, "expected ',' or ']' after an array element");
        if (!read || !more) {
            stage.move_into(out, stage.size()); // an error keeps what was read, as out would
            return read;
        }
        if (i + 1 == staged) {
            stage.move_into(out, 2 * staged);
            ++i;
            return true;
        }
    }
}

template <class S>
bool read_sequence(reader& r, S& out) {
    if (*r.p != '[') return r.fail_type("array");
    out.clear();
    const char* const start = r.p;
    bool empty;
    if (!open_container(r, ']', empty)) return false;
    if (empty) return true;
    const std::size_t depth = r.depth();
    using E = typename S::value_type;
    std::size_t i = 0;
    if constexpr (reflect::is_std_vector_v<S> && staged_elements<E> != 0) {
        if (out.capacity() == 0) {
            bool more = false;
            if (!read_staged_elements(r, out, start, depth, i, more)) return false;
            if (!more) return true;
        }
    }
    for (;; ++i) {
        const char* const value = r.p;
        if constexpr (std::is_same_v<E, bool>) { // vector<bool> has no bool& to read into
            bool b = false;
            if (!read_value(r, b) && !r.step_over(i, start, value, depth)) return false;
            out.push_back(b);
        } else {
            if (!read_value(r, out.emplace_back()) && !r.step_over(i, start, value, depth)) return false;
        }
        bool more = false;
        if (!read_separator(r, ']', more, "expected ',' or ']' after an array element")) return false;
        if (!more) return true;
    }
}

template <class A>
bool read_array(reader& r, A& out) {
    constexpr std::size_t n = std::tuple_size_v<A>;
    if (*r.p != '[') return r.fail_type("array");
    const char* const start = r.p;
    bool empty;
    if (!open_container(r, ']', empty)) return false;
    const std::size_t depth = r.depth();
    std::size_t i = 0;
    if (!empty) {
        for (;; ++i) {
            if (i == n) return r.fail("expected exactly " + std::to_string(n) + " items, got more");
            const char* const value = r.p;
            if (!read_value(r, out[i]) && !r.step_over(i, start, value, depth)) return false;
            bool more = false;
            if (!read_separator(r, ']', more, "expected ',' or ']' after an array element"))
                return false;
            if (!more) break;
        }
        ++i;
    }
    if (i != n)
        return r.fail("expected exactly " + std::to_string(n) + " items, got " + std::to_string(i));
    return true;
}

/// The ':' after a member name, and the white space before its value.
[[gnu::always_inline]] inline bool read_name_separator(reader& r) {
    if (!r.expect(':', "after a member name")) return false;
    r.skip_whitespace();
    return true;
}

/// read_name_separator where 3 bytes are known to follow: ":" or ": " before a value's first
/// byte, the forms compact and indented JSON have, are checked in place.
[[gnu::always_inline]] inline bool read_name_separator_in_room(reader& r) {
    if (*r.p == ':') [[likely]] {
        const char* const value = r.p + 1 + (r.p[1] == ' ');
        if (static_cast<unsigned char>(*value) > ' ') [[likely]] {
            r.p = value;
            return true;
        }
    }
    return read_name_separator(r);
}

/// Reads a member name and the ':' after it; p is at the value afterwards.
inline bool read_member_name(reader& r, std::string_view& key, bool& from_scratch) {
    if (r.p == r.end || *r.p != '"') return r.fail_syntax("expected a member name in double quotes");
    return r.read_key(key, from_scratch) && read_name_separator(r);
}

// The strict dialect's form of a map: [{"key": "...", "value": ...}, ...].
template <class M>
bool read_map_pairs(reader& r, M& out) {
    out.clear();
    bool empty;
    if (!open_container(r, ']', empty)) return false;
    if (empty) return true;
    for (std::size_t i = 0;; ++i) {
        if (r.at_end() || *r.p != '{')
            return r.fail_type("object with \"key\" and \"value\""), r.push_index(i);
        bool empty_pair;
        if (!open_container(r, '}', empty_pair)) return r.push_index(i);
        std::optional<std::string> key;
        typename M::mapped_type value{};
        bool has_value = false;
        for (bool more = !empty_pair; more;) {
            std::string_view name;
            bool from_scratch;
            if (!read_member_name(r, name, from_scratch)) return r.push_index(i);
            if (name == "key") {
                if (key) return r.fail_duplicate("key"), r.push_index(i);
                if (!read_value(r, key.emplace())) return r.push_key("key"), r.push_index(i);
            } else if (name == "value") {
                if (has_value) return r.fail_duplicate("value"), r.push_index(i);
                if (!read_value(r, value)) return r.push_key("value"), r.push_index(i);
                has_value = true;
            } else if (r.rejects_unknown_members()) {
                return r.fail_unknown(name), r.push_index(i);
            } else if (!r.skip_value()) {
                return r.push_index(i);
            }
            if (!read_separator(r, '}', more, "expected ',' or '}' after a member value"))
                return r.push_index(i);
        }
        if (!key) return r.fail("missing required member \"key\""), r.push_index(i);
        if (!has_value) return r.fail("missing required member \"value\""), r.push_index(i);
        auto [it, inserted] = out.try_emplace(std::move(*key), std::move(value));
        if (!inserted) return r.fail("duplicate key " + quoted_excerpt(it->first)), r.push_index(i);
        bool more = false;
        if (!read_separator(r, ']', more, "expected ',' or ']' after an array element")) return false;
        if (!more) return true;
    }
}

template <class M>
bool read_map(reader& r, M& out) {
    if (*r.p == '[') return read_map_pairs(r, out);
    if (*r.p != '{') return r.fail_type("object");
    out.clear();
    const char* const start = r.p;
    bool empty;
    if (!open_container(r, '}', empty)) return false;
    if (empty) return true;
    const std::size_t depth = r.depth();
    for (;;) {
        if (r.p == r.end || *r.p != '"') return r.fail_syntax("expected a member name in double quotes");
        std::string key;
        if (!r.read_string(key)) return false;
        if (!r.expect(':', "after a member name")) return false;
        r.skip_whitespace();
        auto [it, inserted] = out.try_emplace(std::move(key));
        if (!inserted) return r.fail_duplicate(it->first);
        const char* const value = r.p;
        if (!read_value(r, it->second) && !r.step_over(it->first, start, value, depth)) return false;
        bool more = false;
        if (!read_separator(r, '}', more, "expected ',' or '}' after a member value")) return false;
        if (!more) return true;
    }
}

/// Reads the one alternative of V that can start with `first` (the only one to try): its
/// errors are its own, at their own path.
template <class V>
bool read_only_alternative(reader& r, V& out, char first) {
    bool read = false;
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<std::variant_size_v<V>>>([&](auto I) {
        using A = std::variant_alternative_t<I, V>;
        if (!accepts_first_char<A>(first)) return;
        A value{};
        if ((read = read_value(r, value))) out.template emplace<I>(std::move(value));
    });
    return read;
}

template <class V>
bool read_variant(reader& r, V& out) {
    const char first = *r.p;
    const std::size_t accepting = []<class... Ts>(std::variant<Ts...>*, char c) {
        return (std::size_t{accepts_first_char<Ts>(c)} + ...);
    }(static_cast<V*>(nullptr), first);
    if (accepting == 1) {
        // Tried whole as any alternative is: errors inside it are one error of the value.
        std::vector<json_error>* const collecting = r.pause_collecting();
        const bool read = read_only_alternative(r, out, first);
        r.resume_collecting(collecting);
        return read;
    }
    const char* start = r.p;
    const std::size_t depth = r.depth();
    std::string reasons;
    bool any_accepting = false, done = false;
    auto try_alternatives = [&] {
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<std::variant_size_v<V>>>([&](auto I) {
            using A = std::variant_alternative_t<I, V>;
            if (done || !accepts_first_char<A>(first)) return;
            any_accepting = true;
            A value{};
            if (read_value(r, value)) {
                out.template emplace<I>(std::move(value));
                done = true;
                return;
            }
            const std::string where = r.relative_path();
            reasons += reasons.empty() ? "as " : "; as ";
            reasons.append(schema_name<A>()).append(": ");
            if (!where.empty()) reasons.append("at ").append(where).append(": ");
            reasons += r.reason();
            r.clear_error();
            r.p = start;
            r.set_depth(depth);
        });
    };
    // Alternatives are tried whole: errors inside one that fails are not the value's.
    std::vector<json_error>* const collecting = r.pause_collecting();
    // An alternative that has every member of the value wins, as the schema's closed
    // objects say: {"x":1,"y":2,"z":3} is a point3, not a point2 that skips "z".
    if (!r.rejects_unknown_members()) {
        r.set_rejects_unknown_members(true);
        try_alternatives();
        r.set_rejects_unknown_members(false);
        reasons.clear();
    }
    if (!done) try_alternatives();
    r.resume_collecting(collecting);
    if (done) return true;
    if (!any_accepting) return r.fail_type(kind_name<V>());
    return r.fail("matches none of the alternatives (" + reasons + ")");
}

/// Checks a value against a member's declared constraints (see field_info).
template <class M>
bool check_value(reader& r, const field_info& info, const M& v) {
    using reflect::mapped_kind;
    constexpr mapped_kind kind = reflect::mapped_kind_v<M>;
    if constexpr (kind == mapped_kind::nullable) {
        return !v || check_value(r, info, *v);
    } else if constexpr (reflect::is_array_kind(kind)) {
        if (info.has_items_constraints()) {
            std::string reason = check_item_count(info, v.size());
            if (!reason.empty()) return r.fail(std::move(reason));
        }
        if (info.has_string_constraints() || info.has_number_constraints()) {
            field_info element_info = info;
            element_info.min_items.reset();
            element_info.max_items.reset();
            std::size_t i = 0;
            for (const auto& e : v) {
                if (!check_value(r, element_info, e)) return r.push_index(i);
                ++i;
            }
        }
        return true;
    } else if constexpr (kind == mapped_kind::string) {
        std::string reason = check_string(info, v);
        return reason.empty() || r.fail(std::move(reason));
    } else if constexpr (reflect::is_number_kind(kind)) {
        std::string reason = check_number(info, static_cast<double>(v));
        return reason.empty() || r.fail(std::move(reason));
    } else {
        return true;
    }
}

template <std::size_t N>
using seen_set = std::conditional_t<(N <= 64), std::uint64_t, std::bitset<N>>;

/// Whether the N bytes at p are `text`: a few word compares with the words as constants,
/// no branch on a length known only at run time.
template <std::size_t N>
[[gnu::always_inline]] inline bool equals_constant(const char* p, const std::array<char, N>& text) noexcept {
    auto word = [](const char* q, auto type) {
        decltype(type) v;
        std::memcpy(&v, q, sizeof v);
        return v;
    };
    if constexpr (N >= 8) {
        for (std::size_t i = 0; i + 8 < N; i += 8)
            if (word(p + i, std::uint64_t{}) != word(text.data() + i, std::uint64_t{})) return false;
        return word(p + N - 8, std::uint64_t{}) == word(text.data() + N - 8, std::uint64_t{});
    } else if constexpr (N >= 4) {
        return word(p, std::uint32_t{}) == word(text.data(), std::uint32_t{}) &&
               word(p + N - 4, std::uint32_t{}) == word(text.data() + N - 4, std::uint32_t{});
    } else {
        return std::memcmp(p, text.data(), N) == 0;
    }
}

/** Whether struct_reader<T> reads T's members through a member_table (read_members_by_table):
    from 20 members on. A smaller struct's own code, its names compared as constants, runs
    fewer instructions; past about 20 members that code is larger than the time it saves (the
    catalog's 15-member product read 4 % more instructions through a table, twitter's 25-member
    status 8 % faster). Up to 64 members, the bits of `seen` in one word.
*/
template <class T>
inline constexpr bool reads_members_by_table =
    boost::mp11::mp_size<reflect::members_of<T>>::value >= 20 &&
    boost::mp11::mp_size<reflect::members_of<T>>::value <= 64;

template <class T>
struct struct_reader {
    using members = reflect::members_of<T>;
    static constexpr std::size_t size = boost::mp11::mp_size<members>::value;
    static constexpr auto names = reflect::detail::json_names<T>();

    static constexpr bool is_required(std::size_t i) {
        bool required = false;
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<size>>([&](auto I) {
            using D = boost::mp11::mp_at_c<members, I>;
            if (I == i) required = !reflect::is_nullable_v<reflect::member_type_t<decltype(D::pointer)>>;
        });
        return required;
    }

    /// The member named `key`, or size.
    static std::size_t find(std::string_view key) noexcept {
        for (std::size_t i = 0; i < size; ++i)
            if (same_text(names[i], key)) return i;
        return size;
    }

    /// Whether member I's name in quotes is at r.p, stepping over it if so. Past it there is
    /// room for a ':', a space and a value's first byte (read_name_separator_in_room).
    template <std::size_t I>
    [[gnu::always_inline]] static bool at_name(reader& r) noexcept {
        static constexpr auto& quoted = reflect::detail::quoted_json_name<T, I>::text;
        if (static_cast<std::size_t>(r.end - r.p) < quoted.size() + 3 || quoted.size() - 2 > r.max_string_length() ||
            !equals_constant(r.p, quoted))
            return false;
        r.p += quoted.size();
        return true;
    }

    /** Reads members in declaration order from member `from` on, as documents mostly keep
        it: each found by its constant name (or `known`, whose name was read already) and read
        by its own code, no lookup. Stops at a member out of that order (`from` is the one
        expected), after the last member (`from` is size) or at the object's end (`more` is
        false). False on an error.
    */
    static bool read_in_order(reader& r, T& obj, const char* start, std::size_t depth, seen_set<size>& seen,
                              std::size_t& from, std::size_t known, bool& more) {
        if constexpr (reads_members_by_table<T>)
            return read_members_by_table(r, &obj, table, start, depth, seen, from, known, more);
        else
            return read_members_in_order(std::make_index_sequence<size>{}, r, obj, start, depth,
                                         seen, from, known, more);
    }

    // A function, not a lambda: its captures, reached through the closure, were loaded again
    // after every member's call. (Unused with no members: the maybe_unused.)
    template <std::size_t... I>
    static bool read_members_in_order(std::index_sequence<I...>, [[maybe_unused]] reader& r, [[maybe_unused]] T& obj,
                                      [[maybe_unused]] const char* start, [[maybe_unused]] std::size_t depth,
                                      seen_set<size>& seen, std::size_t& from, [[maybe_unused]] std::size_t known,
                                      bool& more) {
        // Copies, not the references: no call in between can change a local whose address is
        // not taken, so it stays in a register instead of being loaded after each call.
        auto seen_here = seen;
        auto from_here = from;
        bool more_here = more;
        bool ok = true;
        (void)(read_in_order_step<I>(r, obj, start, depth, seen_here, from_here, known, more_here, ok) && ...);
        seen = seen_here;
        from = from_here;
        more = more_here;
        return ok;
    }

    /// Member I of read_in_order; true to go on to member I + 1.
    template <std::size_t I>
    [[gnu::always_inline]] static bool read_in_order_step(reader& r, T& obj, const char* start, std::size_t depth,
                                                          seen_set<size>& seen, std::size_t& from,
                                                          std::size_t known, bool& more, bool& ok) {
        if (I < from) return true;
        if (I != known) {
            if (!at_name<I>(r)) return false;
            if (!read_name_separator_in_room(r)) return ok = false;
        }
        if (test(seen, I)) return ok = r.fail_duplicate(names[I]);
        set(seen, I);
        const char* const value = r.p;
        if (!read_member<I>(r, obj) && !r.step_over(names[I], start, value, depth)) return ok = false;
        from = I + 1;
        const int separator = read_member_separator(r);
        if (separator < 0) return ok = false;
        more = separator != 0;
        return more;
    }

    /// read_member<I> as a member_table calls it.
    template <std::size_t I>
    static bool read_member_of(reader& r, void* object) {
        return read_member<I>(r, *static_cast<T*>(object));
    }

    template <std::size_t... I>
    static constexpr std::array<member_entry, size> make_table_entries(std::index_sequence<I...>) {
        return {member_entry{
            &read_member_of<I>,
            std::string_view(reflect::detail::quoted_json_name<T, I>::text.data(),
                             reflect::detail::quoted_json_name<T, I>::text.size())}...};
    }

    static constexpr std::size_t longest_name() {
        std::size_t longest = 0;
        for (const std::string_view name : names)
            longest = std::max(longest, name.size());
        return longest;
    }

    static constexpr auto table_entries = make_table_entries(std::make_index_sequence<size>{});
    static constexpr member_table table{table_entries.data(), size, longest_name()};

    template <std::size_t I>
    static bool read_member(reader& r, T& obj) {
        using D = boost::mp11::mp_at_c<members, I>;
        auto& value = obj.*D::pointer;
        if (!read_value(r, value)) return false;
        static constexpr field_info info = reflect::field_info_of<T, D>();
        if constexpr (info.has_number_constraints() || info.has_string_constraints() ||
                      info.has_items_constraints())
            return check_value(r, info, value);
        return true;
    }

    static bool read(reader& r, T& obj) {
        if (*r.p != '{') return r.fail_type("object");
        const char* const start = r.p;
        bool empty;
        if (!open_container(r, '}', empty)) return false;
        const std::size_t depth = r.depth();
        seen_set<size> seen{};
        // Made only when an unknown member shows up: a std::optional<key_set> here
        // was zero-filled (344 bytes) on every object read.
        std::unique_ptr<key_set> unknown;
        std::size_t from = 0;     // the member expected next
        std::size_t known = size; // a member whose name was read out of order, or none
        for (bool more = !empty; more;) {
            if (!read_in_order(r, obj, start, depth, seen, from, known, more)) return false;
            if (!more) break;
            std::string_view key;
            bool from_scratch = false; // set by read_member_name; GCC warns otherwise
            if (!read_member_name(r, key, from_scratch)) return false;
            known = find(key);
            if (known < size) {
                from = known;
                continue;
            }
            if (r.rejects_unknown_members() && (r.fail_unknown(key), !r.record_error(start))) return false;
            if (!unknown) unknown = std::make_unique<key_set>();
            if (!unknown->insert(key)) return r.fail_duplicate(key);
            const std::string saved = from_scratch ? std::string(key) : std::string();
            if (!r.skip_value()) return r.push_key(from_scratch ? std::string_view(saved) : key);
            if (!read_separator(r, '}', more, "expected ',' or '}' after a member value")) return false;
        }
        if constexpr (size > 0) {
            if (!has_all_required(seen))
                for (std::size_t i = 0; i < size; ++i)
                    if (required[i] && !test(seen, i) &&
                        (r.fail("missing required member \"" + std::string(names[i]) + "\""), !r.record_error(start)))
                        return false;
        }
        return true;
    }

private:
    static constexpr auto required = [] {
        std::array<bool, size> out{};
        for (std::size_t i = 0; i < size; ++i) out[i] = is_required(i);
        return out;
    }();

    static bool has_all_required(const seen_set<size>& s) {
        if constexpr (size <= 64) {
            constexpr std::uint64_t mask = [] {
                std::uint64_t m = 0;
                for (std::size_t i = 0; i < size; ++i)
                    if (required[i]) m |= std::uint64_t{1} << i;
                return m;
            }();
            return (s & mask) == mask; // one test instead of a loop per object
        } else {
            for (std::size_t i = 0; i < size; ++i)
                if (required[i] && !s.test(i)) return false;
            return true;
        }
    }

    static bool test(const seen_set<size>& s, std::size_t i) {
        if constexpr (size <= 64) return (s >> i) & 1u;
        else return s.test(i);
    }
    static void set(seen_set<size>& s, std::size_t i) {
        if constexpr (size <= 64) s |= std::uint64_t{1} << i;
        else s.set(i);
    }
};

template <class T>
bool read_value(reader& r, T& out) {
    using reflect::mapped_kind;
    constexpr mapped_kind kind = reflect::mapped_kind_v<T>;
    static_assert(kind != mapped_kind::unmapped,
                  "forma maps bool, integers, floating point, std::string, described enums and "
                  "structs, std::optional, std::unique_ptr, vector/list/deque/array, string-keyed "
                  "maps, std::variant of these and boost::json::value; this type is none of them");
    if (r.at_end()) return r.fail_syntax("unexpected end of input, expected a value");
    if constexpr (kind == mapped_kind::boolean) return read_bool(r, out);
    else if constexpr (kind == mapped_kind::integer) return read_integer(r, out);
    else if constexpr (kind == mapped_kind::number) return read_float(r, out);
    else if constexpr (kind == mapped_kind::string) return read_string_value(r, out);
    else if constexpr (kind == mapped_kind::enumeration) return read_enum(r, out);
    else if constexpr (kind == mapped_kind::null) return read_literal(r, "null", 4) || r.fail_type("null");
    else if constexpr (kind == mapped_kind::nullable) return read_nullable(r, out);
    else if constexpr (kind == mapped_kind::sequence) return read_sequence(r, out);
    else if constexpr (kind == mapped_kind::fixed_array) return read_array(r, out);
    else if constexpr (kind == mapped_kind::string_map) return read_map(r, out);
    else if constexpr (kind == mapped_kind::variant) return read_variant(r, out);
    else if constexpr (kind == mapped_kind::json_value) return read_json_value(r, out);
    else return struct_reader<T>::read(r, out);
}

template <class T>
bool read_document(reader& r, T& out) {
    r.skip_whitespace();
    if (!read_value(r, out)) return false;
    r.skip_whitespace();
    return r.at_end() || r.fail_syntax("unexpected characters after the JSON value");
}

} // namespace forma::json_detail
