#pragma once

#include <forma/json.hpp>

#include <boost/describe.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace test_types {

enum class unit { c, f };
BOOST_DESCRIBE_ENUM(unit, c, f)

struct address {
    std::string street;
    std::string zip;
    bool operator==(const address&) const = default;
};
BOOST_DESCRIBE_STRUCT(address, (), (street, zip))

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
    bool operator==(const person&) const = default;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))

struct widths {
    std::int8_t i8 = 0;
    std::uint8_t u8 = 0;
    std::int16_t i16 = 0;
    std::uint16_t u16 = 0;
    std::int32_t i32 = 0;
    std::uint32_t u32 = 0;
    std::int64_t i64 = 0;
    std::uint64_t u64 = 0;
    float f = 0;
    double d = 0;
    bool b = false;
    bool operator==(const widths&) const = default;
};
BOOST_DESCRIBE_STRUCT(widths, (), (i8, u8, i16, u16, i32, u32, i64, u64, f, d, b))

struct containers {
    std::vector<int> numbers;
    std::list<std::string> words;
    std::deque<double> values;
    std::array<int, 3> triple{};
    std::map<std::string, int> counts;
    std::unordered_map<std::string, address> places;
    std::vector<bool> flags;
    bool operator==(const containers&) const = default;
};
BOOST_DESCRIBE_STRUCT(containers, (), (numbers, words, values, triple, counts, places, flags))

struct reading {
    double value = 0;
    unit units = unit::c;
    std::optional<address> where;
    bool operator==(const reading&) const = default;
};
BOOST_DESCRIBE_STRUCT(reading, (), (value, units, where))

struct shape_circle {
    double radius = 0;
    bool operator==(const shape_circle&) const = default;
};
BOOST_DESCRIBE_STRUCT(shape_circle, (), (radius))

struct shape_square {
    double side = 0;
    std::string label;
    bool operator==(const shape_square&) const = default;
};
BOOST_DESCRIBE_STRUCT(shape_square, (), (side, label))

struct drawing {
    std::vector<std::variant<shape_circle, shape_square>> shapes;
    std::variant<int, std::string, std::monostate> tag;
    bool operator==(const drawing&) const = default;
};
BOOST_DESCRIBE_STRUCT(drawing, (), (shapes, tag))

struct entity {
    std::string id;
    bool operator==(const entity&) const = default;
};
BOOST_DESCRIBE_STRUCT(entity, (), (id))

struct employee : entity {
    std::string name;
    bool operator==(const employee&) const = default;
};
BOOST_DESCRIBE_STRUCT(employee, (entity), (name))

struct tree {
    std::string label;
    std::vector<tree> children;
    bool operator==(const tree&) const = default;
};
BOOST_DESCRIBE_STRUCT(tree, (), (label, children))

struct list_node {
    int value = 0;
    std::optional<std::unique_ptr<list_node>> next;
    bool operator==(const list_node& o) const {
        if (value != o.value || next.has_value() != o.next.has_value()) return false;
        if (!next) return true;
        if (!*next || !*o.next) return !*next && !*o.next;
        return **next == **o.next;
    }
};
BOOST_DESCRIBE_STRUCT(list_node, (), (value, next))

// A recursive struct reached from a non-recursive root: it goes to $defs.
struct org_chart {
    std::string company;
    tree root;
    bool operator==(const org_chart&) const = default;
};
BOOST_DESCRIBE_STRUCT(org_chart, (), (company, root))

struct constrained {
    std::string code;
    int score = 0;
    std::vector<std::string> tags;
    std::optional<double> ratio;
    std::string email;
    bool operator==(const constrained&) const = default;
};
BOOST_DESCRIBE_STRUCT(constrained, (), (code, score, tags, ratio, email))
FORMA_DESCRIBE_TYPE(constrained, .name = "constrained_record", .description = "A record with rules");
FORMA_DESCRIBE_FIELDS(constrained,
    (code, .description = "Three capital letters", .min_length = 3, .max_length = 3,
     .pattern = "^[A-Z]+$"),
    (score, .minimum = 0, .maximum = 100),
    (tags, .max_length = 5, .min_items = 1, .max_items = 3),
    (ratio, .exclusive_minimum = 0, .exclusive_maximum = 1),
    (email, .format = "email"));

struct part {
    int a = 0;
    std::string b;
    friend bool operator==(const part&, const part&) = default;
};
BOOST_DESCRIBE_STRUCT(part, (), (a, b))

/// A struct read through its member table (read_members_by_table), of 22 members: every kind
/// of value, names of 1 to 34 bytes (a quoted name of 16 bytes fits one compare block, 17 does
/// not), one JSON name that is not the C++ name, one not ASCII.
struct wide {
    std::string id;
    int n = 0;
    std::uint64_t big = 0;
    double ratio = 0;
    bool flag = false;
    std::optional<std::string> note;
    std::optional<int> count;
    std::vector<int> values;
    part inner;
    std::optional<part> extra;
    test_types::unit scale = unit::c;
    std::string fourteen_bytes; // quoted: 16 bytes
    std::string fifteen_bytes_; // quoted: 17 bytes
    std::string a_member_name_longer_than_sixteen;
    std::string label; // JSON name "display-label"
    int umlaut = 0;    // JSON name "z\u00e4hler"
    std::vector<std::string> tags;
    std::optional<std::vector<part>> parts;
    std::string short_text; // at least 2 bytes
    int m20 = 0;
    int m21 = 0;
    std::string last;
    friend bool operator==(const wide&, const wide&) = default;
};
BOOST_DESCRIBE_STRUCT(wide, (),
                      (id, n, big, ratio, flag, note, count, values, inner, extra, scale,
                       fourteen_bytes, fifteen_bytes_, a_member_name_longer_than_sixteen, label,
                       umlaut, tags, parts, short_text, m20, m21, last))
FORMA_DESCRIBE_FIELDS(wide, (label, .json_name = "display-label"),
                      (umlaut, .json_name = "z\u00e4hler"), (short_text, .min_length = 2));

} // namespace test_types
