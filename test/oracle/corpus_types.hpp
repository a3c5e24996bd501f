#pragma once

// The schema oracle's corpus: described types covering every mapping forma supports,
// each with deterministic samples (edge cases included). `corpus_roots` lists the roots
// the oracle checks; `samples<T>::make()` gives each root's sample values.

#include <forma/json.hpp>

#include <boost/describe.hpp>
#include <boost/mp11/list.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace oracle {

using namespace std::string_literals;

// ---- enums ---------------------------------------------------------------------------

enum class color { red, green, blue };
BOOST_DESCRIBE_ENUM(color, red, green, blue)
FORMA_DESCRIBE_TYPE(color, .description = "A primary colour of light");

enum class department { engineering, sales, support_desk };
BOOST_DESCRIBE_ENUM(department, engineering, sales, support_desk)

enum class order_status { pending, shipped, delivered, cancelled };
BOOST_DESCRIBE_ENUM(order_status, pending, shipped, delivered, cancelled)

// ---- plain structs with descriptions and constraints --------------------------------

struct address {
    std::string street;
    std::string city;
    std::string postal_code;
    std::optional<std::string> country;
    bool operator==(const address&) const = default;
};
BOOST_DESCRIBE_STRUCT(address, (), (street, city, postal_code, country))
FORMA_DESCRIBE_TYPE(address, .description = "A postal address");
FORMA_DESCRIBE_FIELDS(address,
    (city, .description = "City or town", .min_length = 1),
    (postal_code, .description = "Five-digit postal code", .pattern = "^[0-9]{5}$"),
    (country, .description = "ISO 3166-1 alpha-2 code", .min_length = 2, .max_length = 2));

struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
    std::optional<std::string> email;
    bool operator==(const person&) const = default;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation, email))
FORMA_DESCRIBE_TYPE(person, .name = "person_record",
                    .description = "A person named in the text; \"quoted\", naïve ✓");
FORMA_DESCRIBE_FIELDS(person,
    (name, .description = "Full name", .min_length = 1, .max_length = 40),
    (age, .description = "Age in years", .minimum = 0, .maximum = 150),
    (email, .format = "email"));

struct integer_widths {
    std::int8_t i8 = 0;
    std::uint8_t u8 = 0;
    std::int16_t i16 = 0;
    std::uint16_t u16 = 0;
    std::int32_t i32 = 0;
    std::uint32_t u32 = 0;
    std::int64_t i64 = 0;
    std::uint64_t u64 = 0;
    bool operator==(const integer_widths&) const = default;
};
BOOST_DESCRIBE_STRUCT(integer_widths, (), (i8, u8, i16, u16, i32, u32, i64, u64))

struct floating_point {
    float f32 = 0;
    double f64 = 0;
    bool operator==(const floating_point&) const = default;
};
BOOST_DESCRIBE_STRUCT(floating_point, (), (f32, f64))

struct measurement {
    double celsius = 0;
    float ratio = 0.5f;
    std::vector<double> readings;
    int percent = 0;
    std::optional<std::int64_t> sequence;
    std::uint8_t level = 0;
    bool operator==(const measurement&) const = default;
};
BOOST_DESCRIBE_STRUCT(measurement, (), (celsius, ratio, readings, percent, sequence, level))
FORMA_DESCRIBE_FIELDS(measurement,
    (celsius, .description = "Temperature in degrees Celsius", .minimum = -273.15),
    (ratio, .exclusive_minimum = 0, .exclusive_maximum = 1),
    (readings, .minimum = 0, .maximum = 100, .min_items = 1, .max_items = 5),
    (percent, .minimum = 0, .maximum = 100),
    (sequence, .minimum = 1),
    (level, .minimum = -10, .maximum = 9)); // -10 is looser than uint8_t's 0: 0 stays

struct text_formats {
    std::string id;
    std::string created_at;
    std::string day;
    std::string homepage;
    std::string ticket;
    std::string code;
    std::vector<std::string> tags;
    bool operator==(const text_formats&) const = default;
};
BOOST_DESCRIBE_STRUCT(text_formats, (), (id, created_at, day, homepage, ticket, code, tags))
FORMA_DESCRIBE_FIELDS(text_formats,
    (id, .format = "uuid"),
    (created_at, .format = "date-time"),
    (day, .format = "date"),
    (homepage, .description = "Home page", .format = "uri"), // outside the strict formats
    (ticket, .pattern = "^[A-Z]{2,4}-[0-9]+$"),
    (code, .min_length = 2, .max_length = 5),
    (tags, .min_length = 1, .max_length = 8, .max_items = 4, .pattern = "^[a-z]+$"));

struct text_escapes {
    std::string text;
    std::vector<std::string> lines;
    std::optional<std::string> note;
    bool operator==(const text_escapes&) const = default;
};
BOOST_DESCRIBE_STRUCT(text_escapes, (), (text, lines, note))

// ---- containers, maps, optionals ----------------------------------------------------

struct containers {
    std::vector<int> numbers;
    std::list<std::string> names;
    std::deque<double> weights;
    std::array<std::int16_t, 3> triple{};
    std::vector<bool> flags;
    std::vector<std::vector<int>> matrix;
    std::deque<address> addresses;
    std::list<color> palette;
    bool operator==(const containers&) const = default;
};
BOOST_DESCRIBE_STRUCT(containers, (),
                      (numbers, names, weights, triple, flags, matrix, addresses, palette))
FORMA_DESCRIBE_FIELDS(containers, (palette, .description = "Colours in order of preference"));

struct optionals {
    std::optional<int> count;
    std::optional<color> shade;
    std::optional<address> home;
    std::optional<std::vector<int>> values;
    std::vector<std::optional<std::string>> slots;
    std::optional<bool> flag;
    std::optional<std::string> code;
    bool operator==(const optionals&) const = default;
};
BOOST_DESCRIBE_STRUCT(optionals, (), (count, shade, home, values, slots, flag, code))
FORMA_DESCRIBE_FIELDS(optionals,
    (count, .description = "How many, if known", .minimum = 0, .maximum = 10),
    (code, .pattern = "^[a-z]{3}$"));

// ---- variants ------------------------------------------------------------------------

struct circle {
    double radius = 0;
    bool operator==(const circle&) const = default;
};
BOOST_DESCRIBE_STRUCT(circle, (), (radius))
FORMA_DESCRIBE_FIELDS(circle, (radius, .minimum = 0));

struct rectangle {
    double width = 0;
    double height = 0;
    bool operator==(const rectangle&) const = default;
};
BOOST_DESCRIBE_STRUCT(rectangle, (), (width, height))

using shape = std::variant<circle, rectangle>;

struct drawing {
    std::string title;
    std::vector<shape> shapes;
    std::variant<std::monostate, std::int32_t, std::string> label;
    std::optional<shape> highlight;
    bool operator==(const drawing&) const = default;
};
BOOST_DESCRIBE_STRUCT(drawing, (), (title, shapes, label, highlight))
FORMA_DESCRIBE_FIELDS(drawing, (label, .description = "No label, a number, or a text"));

// Alternatives whose members overlap: {x, y} is a prefix of {x, y, z}.
struct point2 {
    int x = 0;
    int y = 0;
    bool operator==(const point2&) const = default;
};
BOOST_DESCRIBE_STRUCT(point2, (), (x, y))

struct point3 {
    int x = 0;
    int y = 0;
    int z = 0;
    bool operator==(const point3&) const = default;
};
BOOST_DESCRIBE_STRUCT(point3, (), (x, y, z))

using any_point = std::variant<point2, point3>;

// ---- recursion -----------------------------------------------------------------------

struct tree_node {
    std::string label;
    std::vector<tree_node> children;
    bool operator==(const tree_node&) const = default;
};
BOOST_DESCRIBE_STRUCT(tree_node, (), (label, children))
FORMA_DESCRIBE_TYPE(tree_node, .description = "A node of a tree");
FORMA_DESCRIBE_FIELDS(tree_node, (children, .description = "Subtrees, in order"));

// Recursive structs reached through a member, an optional, a variant and an array.
struct forest {
    tree_node main;
    std::optional<tree_node> spare;
    std::variant<tree_node, std::string> either;
    std::array<tree_node, 2> pair;
    bool operator==(const forest&) const = default;
};
BOOST_DESCRIBE_STRUCT(forest, (), (main, spare, either, pair))
FORMA_DESCRIBE_FIELDS(forest,
    (main, .description = "The main tree"),
    (spare, .description = "A tree kept in reserve"),
    (either, .description = "A tree, or only its name"));

struct maps {
    std::map<std::string, int> counts;
    std::unordered_map<std::string, address> places;
    std::map<std::string, std::vector<std::string>> aliases;
    std::map<std::string, std::optional<double>> scores;
    std::map<std::string, std::map<std::string, color>> nested;
    std::map<std::string, tree_node> forest;
    bool operator==(const maps&) const = default;
};
BOOST_DESCRIBE_STRUCT(maps, (), (counts, places, aliases, scores, nested, forest))
FORMA_DESCRIBE_FIELDS(maps, (counts, .description = "Occurrences per word"));

struct list_node {
    int value = 0;
    std::optional<std::unique_ptr<list_node>> next;

    friend bool operator==(const list_node& a, const list_node& b) {
        if (a.value != b.value || a.next.has_value() != b.next.has_value()) return false;
        if (!a.next) return true;
        const auto& p = *a.next;
        const auto& q = *b.next;
        return p && q ? *p == *q : !p && !q;
    }
};
BOOST_DESCRIBE_STRUCT(list_node, (), (value, next))
FORMA_DESCRIBE_FIELDS(list_node, (next, .description = "The rest of the list"));

struct expression {
    std::string op;
    double value = 0;
    std::unique_ptr<expression> left;
    std::unique_ptr<expression> right;

    friend bool operator==(const expression& a, const expression& b) {
        auto same = [](const std::unique_ptr<expression>& p, const std::unique_ptr<expression>& q) {
            return p && q ? *p == *q : !p && !q;
        };
        return a.op == b.op && a.value == b.value && same(a.left, b.left) && same(a.right, b.right);
    }
};
BOOST_DESCRIBE_STRUCT(expression, (), (op, value, left, right))
FORMA_DESCRIBE_FIELDS(expression, (op, .description = "\"+\", \"*\" or \"lit\" for a literal"));

// Mutual recursion: a section holds paragraphs, a paragraph holds sections.
struct paragraph;
struct section {
    std::string heading;
    std::vector<paragraph> paragraphs;
    bool operator==(const section&) const = default;
};
struct paragraph {
    std::string text;
    std::vector<section> subsections;
    bool operator==(const paragraph&) const = default;
};
BOOST_DESCRIBE_STRUCT(section, (), (heading, paragraphs))
BOOST_DESCRIBE_STRUCT(paragraph, (), (text, subsections))

struct document {
    std::string title;
    std::vector<section> sections;
    bool operator==(const document&) const = default;
};
BOOST_DESCRIBE_STRUCT(document, (), (title, sections))

// Two recursive types with the same unqualified name: their $defs names must differ.
namespace west {
struct region {
    std::string name;
    std::vector<region> parts;
    bool operator==(const region&) const = default;
};
BOOST_DESCRIBE_STRUCT(region, (), (name, parts))
} // namespace west
namespace east {
struct region {
    std::string name;
    std::vector<region> parts;
    std::optional<int> population;
    bool operator==(const region&) const = default;
};
BOOST_DESCRIBE_STRUCT(region, (), (name, parts, population))
} // namespace east

struct atlas {
    std::vector<west::region> west;
    std::vector<east::region> east;
    bool operator==(const atlas&) const = default;
};
BOOST_DESCRIBE_STRUCT(atlas, (), (west, east))

// ---- described bases -----------------------------------------------------------------

struct employee : person {
    std::string employee_id;
    department dept = department::engineering;
    std::vector<std::string> skills;
    bool operator==(const employee&) const = default;
};
BOOST_DESCRIBE_STRUCT(employee, (person), (employee_id, dept, skills))
FORMA_DESCRIBE_FIELDS(employee,
    (age, .description = "Age in years (employees are adults)", .minimum = 18, .maximum = 70),
    (employee_id, .pattern = "^E[0-9]{3,}$"),
    (skills, .max_items = 10));

struct manager : employee {
    std::vector<employee> reports;
    bool operator==(const manager&) const = default;
};
BOOST_DESCRIBE_STRUCT(manager, (employee), (reports))

// ---- a realistic composite, and an empty struct -------------------------------------

struct line_item {
    std::string sku;
    std::uint32_t quantity = 1;
    double unit_price = 0;
    bool operator==(const line_item&) const = default;
};
BOOST_DESCRIBE_STRUCT(line_item, (), (sku, quantity, unit_price))
FORMA_DESCRIBE_FIELDS(line_item,
    (sku, .pattern = "^[A-Z0-9-]+$"),
    (quantity, .minimum = 1),
    (unit_price, .description = "Price of one unit", .minimum = 0));

struct order {
    std::string id;
    person customer;
    address shipping;
    std::vector<line_item> items;
    order_status status = order_status::pending;
    std::map<std::string, std::string> metadata;
    std::optional<std::string> note;
    std::array<double, 2> coordinates{};
    bool operator==(const order&) const = default;
};
BOOST_DESCRIBE_STRUCT(order, (),
                      (id, customer, shipping, items, status, metadata, note, coordinates))
FORMA_DESCRIBE_TYPE(order, .description = "A customer order");
FORMA_DESCRIBE_FIELDS(order, (id, .format = "uuid"), (items, .min_items = 1));

struct empty {
    bool operator==(const empty&) const = default;
};
BOOST_DESCRIBE_STRUCT(empty, (), ())

struct with_empty {
    empty marker;
    std::optional<empty> maybe;
    std::vector<empty> many;
    bool operator==(const with_empty&) const = default;
};
BOOST_DESCRIBE_STRUCT(with_empty, (), (marker, maybe, many))

// ---- the roots the oracle checks -----------------------------------------------------

using corpus_roots = boost::mp11::mp_list<
    // structs
    address, person, integer_widths, floating_point, measurement, text_formats, text_escapes,
    containers, maps, optionals, drawing, tree_node, forest, list_node, expression, document,
    section, atlas, employee, manager, order, with_empty,
    // non-struct roots
    int, std::string, std::uint8_t, color, std::vector<person>, std::optional<int>, shape,
    any_point, std::map<std::string, int>, std::vector<tree_node>, std::optional<list_node>>;

// ---- samples -------------------------------------------------------------------------

template <class T>
struct samples; // specialised for each root; a missing one does not compile

inline std::unique_ptr<list_node> make_list(std::initializer_list<int> values) {
    std::unique_ptr<list_node> head;
    list_node* tail = nullptr;
    for (int v : values) {
        auto node = std::make_unique<list_node>();
        node->value = v;
        list_node* raw = node.get();
        if (tail) tail->next = std::move(node);
        else head = std::move(node);
        tail = raw;
    }
    return head;
}

inline std::unique_ptr<expression> literal(double v) {
    auto e = std::make_unique<expression>();
    e->op = "lit";
    e->value = v;
    return e;
}

inline std::unique_ptr<expression> binary(std::string op, std::unique_ptr<expression> left,
                                          std::unique_ptr<expression> right) {
    auto e = std::make_unique<expression>();
    e->op = std::move(op);
    e->left = std::move(left);
    e->right = std::move(right);
    return e;
}

// Strings that exercise escaping: quotes, backslashes, control characters, NUL,
// multi-byte UTF-8 up to U+10FFFF, and the JavaScript line separators.
inline std::vector<std::string> tricky_strings() {
    return {"",
            "quote \" backslash \\ slash /",
            "\b\f\n\r\t\x01\x1f",
            "nul\0inside"s,
            "del \x7f",
            "naïve café — 日本語",
            "emoji 😀 and 𝄞",
            "separators \u2028 \u2029",
            "\xef\xbf\xbf max BMP, \xf4\x8f\xbf\xbf max code point"};
}

template <>
struct samples<address> {
    static std::vector<address> make() {
        return {{"1 Main St", "Springfield", "12345", std::nullopt},
                {"", "Zürich", "80331", "CH"},
                {"Flat 2 \"B\"\nBack door", "東京", "00000", "JP"}};
    }
};

template <>
struct samples<person> {
    static std::vector<person> make() {
        return {{"John Smith", 35, "software engineer", "john@example.com"},
                {"A", 0, std::nullopt, std::nullopt},
                {"Zoë Ñandú 😀", 150, "", std::nullopt},
                {std::string(40, 'x'), 1, "a\tb", "x@y.z"}};
    }
};

template <>
struct samples<integer_widths> {
    static std::vector<integer_widths> make() {
        using std::numeric_limits;
        using i8 = numeric_limits<std::int8_t>;
        using u8 = numeric_limits<std::uint8_t>;
        using i16 = numeric_limits<std::int16_t>;
        using u16 = numeric_limits<std::uint16_t>;
        using i32 = numeric_limits<std::int32_t>;
        using u32 = numeric_limits<std::uint32_t>;
        using i64 = numeric_limits<std::int64_t>;
        using u64 = numeric_limits<std::uint64_t>;
        integer_widths low{i8::min(),  u8::min(),  i16::min(), u16::min(),
                           i32::min(), u32::min(), i64::min(), u64::min()};
        integer_widths high{i8::max(),  u8::max(),  i16::max(), u16::max(),
                            i32::max(), u32::max(), i64::max(), u64::max()};
        integer_widths minus_one{-1, 1, -1, 1, -1, 1, -1, 1};
        return {integer_widths{}, low, high, minus_one};
    }
};

template <>
struct samples<floating_point> {
    static std::vector<floating_point> make() {
        using f = std::numeric_limits<float>;
        using d = std::numeric_limits<double>;
        return {{0.0f, 0.0},
                {-0.0f, -0.0},
                {0.1f, 0.1},
                {f::max(), d::max()},
                {f::lowest(), d::lowest()},
                {f::min(), d::min()},
                {f::denorm_min(), d::denorm_min()},
                {-1.5e-7f, 123456789.125},
                {16777216.0f, 9007199254740993.0}};
    }
};

template <>
struct samples<measurement> {
    static std::vector<measurement> make() {
        return {{-273.15, 1e-6f, {0.0}, 0, std::nullopt, 0},
                {21.5, 0.5f, {0.0, 12.5, 50.0, 99.9, 100.0}, 100, 1, 9},
                {1e6, 0.99999994f, {33.3}, 42, std::numeric_limits<std::int64_t>::max(), 3}};
    }
};

template <>
struct samples<text_formats> {
    static std::vector<text_formats> make() {
        return {{"123e4567-e89b-12d3-a456-426614174000", "2024-02-29T23:59:59Z", "2024-02-29",
                 "https://example.com/a?b=c#d", "AB-1", "ab", {}},
                {"00000000-0000-0000-0000-000000000000", "1970-01-01T00:00:00.123+05:30",
                 "1999-12-31", "urn:isbn:0451450523", "WXYZ-0042", "ünïcö",
                 {"a", "bbbbbbbb", "c", "dd"}}};
    }
};

template <>
struct samples<text_escapes> {
    static std::vector<text_escapes> make() {
        std::vector<text_escapes> out;
        for (const std::string& s : tricky_strings()) out.push_back({s, {s, s + s}, s});
        out.push_back({"", {}, std::nullopt});
        return out;
    }
};

template <>
struct samples<containers> {
    static std::vector<containers> make() {
        containers none{};
        containers one{{7},         {"x"},
                       {0.5},       {1, 2, 3},
                       {true},      {std::vector<int>{}},
                       {address{"s", "c", "11111", {}}},
                       {color::green}};
        containers many{{-1, 0, 1, std::numeric_limits<int>::max()},
                        {"a", "", "日本"},
                        {1e-300, -2.5, 3.0},
                        {std::numeric_limits<std::int16_t>::min(), 0,
                         std::numeric_limits<std::int16_t>::max()},
                        {true, false, true, true},
                        {{1, 2}, {}, {3}},
                        {},
                        {color::blue, color::red, color::blue}};
        return {none, one, many};
    }
};

template <>
struct samples<maps> {
    static std::vector<maps> make() {
        maps none{};
        maps some{{{"apple", 3}, {"", 0}, {"naïve \"key\"\n", -7}},
                  {{"home", address{"1 Main St", "Springfield", "12345", "US"}}},
                  {{"bob", {"robert", "rob"}}, {"none", {}}},
                  {{"known", 0.25}, {"unknown", std::nullopt}},
                  {{"outer", {{"inner", color::red}, {"other", color::blue}}}, {"empty", {}}},
                  {{"oak", {"oak", {{"branch", {}}}}}, {"", {}}}};
        return {none, some};
    }
};

template <>
struct samples<optionals> {
    static std::vector<optionals> make() {
        optionals absent{};
        optionals present{10, color::blue, address{"s", "c", "22222", std::nullopt},
                          std::vector<int>{1, 2}, {"a", std::nullopt, ""}, false, "abc"};
        optionals hollow{0, color::red, std::nullopt, std::vector<int>{}, {std::nullopt}, true,
                         std::nullopt};
        return {absent, present, hollow};
    }
};

template <>
struct samples<drawing> {
    static std::vector<drawing> make() {
        return {{"empty", {}, std::monostate{}, std::nullopt},
                {"both", {circle{1.5}, rectangle{2, 3}, circle{0}}, std::int32_t{-42},
                 shape{rectangle{}}},
                {"", {rectangle{0.5, 1e10}}, "label \"quoted\"", shape{circle{2}}},
                {"numeric text", {}, "123", std::nullopt}};
    }
};

template <>
struct samples<tree_node> {
    static std::vector<tree_node> make() {
        tree_node leaf{"leaf", {}};
        tree_node deep{"root", {{"a", {{"a.1", {{"a.1.x", {}}}}}}, {"b", {}}}};
        tree_node wide{"wide", {leaf, leaf, {"", {}}, {"ünï", {leaf}}}};
        return {leaf, deep, wide};
    }
};

template <>
struct samples<forest> {
    static std::vector<forest> make() {
        const auto trees = samples<tree_node>::make();
        return {{{}, std::nullopt, "", {}},
                {trees[1], trees[0], trees[2], {trees[0], trees[1]}},
                {trees[0], tree_node{}, "just a name", {tree_node{}, trees[2]}}};
    }
};

template <>
struct samples<list_node> {
    static std::vector<list_node> make() {
        std::vector<list_node> out;
        out.push_back(std::move(*make_list({0})));
        out.push_back(std::move(*make_list({1, 2, 3})));
        out.push_back(std::move(*make_list({std::numeric_limits<int>::min(), -1, 0, 1, 2, 3, 4, 5,
                                            6, 7, 8, 9, std::numeric_limits<int>::max()})));
        return out;
    }
};

template <>
struct samples<expression> {
    static std::vector<expression> make() {
        std::vector<expression> out;
        out.push_back(std::move(*literal(2.5)));
        out.push_back(std::move(*binary("*", binary("+", literal(1), literal(2)), literal(3))));
        out.push_back(std::move(*binary("-", literal(-0.125), nullptr))); // a missing operand
        return out;
    }
};

inline section sample_section() {
    return {"Intro",
            {{"First.", {}},
             {"Second, with a nested section.",
              {{"Details", {{"Deep text.", {{"Deeper", {}}}}}}}}}};
}

template <>
struct samples<section> {
    static std::vector<section> make() { return {{"Empty", {}}, sample_section()}; }
};

template <>
struct samples<document> {
    static std::vector<document> make() {
        return {{"untitled", {}}, {"Report", {sample_section(), {"Outro", {{"Bye.", {}}}}}}};
    }
};

template <>
struct samples<atlas> {
    static std::vector<atlas> make() {
        return {{{}, {}},
                {{{"Iberia", {{"Spain", {}}, {"Portugal", {}}}}},
                 {{"Asia", {{"Japan", {{"Honshu", {}, 104000000}}, std::nullopt}}, 2000000000}}}};
    }
};

template <>
struct samples<employee> {
    static std::vector<employee> make() {
        employee a;
        static_cast<person&>(a) = {"Ada Lovelace", 36, "analyst", "ada@example.com"};
        a.employee_id = "E001";
        a.dept = department::engineering;
        a.skills = {"math", "poetry"};
        employee b;
        static_cast<person&>(b) = {"B", 18, std::nullopt, std::nullopt};
        b.employee_id = "E99999";
        b.dept = department::support_desk;
        employee c;
        static_cast<person&>(c) = {"Carla", 70, std::nullopt, std::nullopt};
        c.employee_id = "E123";
        c.dept = department::sales;
        c.skills = std::vector<std::string>(10, "skill");
        return {a, b, c};
    }
};

template <>
struct samples<manager> {
    static std::vector<manager> make() {
        const auto staff = samples<employee>::make();
        manager m;
        static_cast<employee&>(m) = staff[0];
        m.reports = {staff[1], staff[2]};
        manager alone;
        static_cast<employee&>(alone) = staff[2];
        return {m, alone};
    }
};

template <>
struct samples<order> {
    static std::vector<order> make() {
        order small{"123e4567-e89b-12d3-a456-426614174000",
                    {"John Smith", 35, std::nullopt, std::nullopt},
                    {"1 Main St", "Springfield", "12345", std::nullopt},
                    {{"SKU-1", 1, 0.0}},
                    order_status::pending,
                    {},
                    std::nullopt,
                    {0, 0}};
        order big = small;
        big.items = {{"A-1", 2, 9.99}, {"B2", std::numeric_limits<std::uint32_t>::max(), 1e-9}};
        big.status = order_status::cancelled;
        big.metadata = {{"channel", "web"}, {"coupon", ""}};
        big.note = "leave at the door — thanks!";
        big.coordinates = {-33.8688, 151.2093};
        return {small, big};
    }
};

template <>
struct samples<with_empty> {
    static std::vector<with_empty> make() {
        return {{{}, std::nullopt, {}}, {{}, empty{}, {empty{}, empty{}}}};
    }
};

template <>
struct samples<int> {
    static std::vector<int> make() {
        return {0, -1, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()};
    }
};

template <>
struct samples<std::string> {
    static std::vector<std::string> make() { return tricky_strings(); }
};

template <>
struct samples<std::uint8_t> {
    static std::vector<std::uint8_t> make() { return {0, 1, 255}; }
};

template <>
struct samples<color> {
    static std::vector<color> make() { return {color::red, color::green, color::blue}; }
};

template <>
struct samples<std::vector<person>> {
    static std::vector<std::vector<person>> make() { return {{}, samples<person>::make()}; }
};

template <>
struct samples<std::optional<int>> {
    static std::vector<std::optional<int>> make() { return {std::nullopt, 0, -5}; }
};

template <>
struct samples<shape> {
    static std::vector<shape> make() { return {circle{1}, rectangle{2, 3}, rectangle{}}; }
};

template <>
struct samples<any_point> {
    static std::vector<any_point> make() { return {point2{1, 2}, point3{1, 2, 3}, point3{}}; }
};

template <>
struct samples<std::map<std::string, int>> {
    static std::vector<std::map<std::string, int>> make() {
        return {{}, {{"a", 1}, {"b", -2}, {"日本", 3}, {"\"\\\n", 4}}};
    }
};

template <>
struct samples<std::vector<tree_node>> {
    static std::vector<std::vector<tree_node>> make() { return {{}, samples<tree_node>::make()}; }
};

template <>
struct samples<std::optional<list_node>> {
    static std::vector<std::optional<list_node>> make() {
        std::vector<std::optional<list_node>> out;
        out.emplace_back(std::nullopt);
        out.emplace_back(std::move(*make_list({4, 5})));
        return out;
    }
};

} // namespace oracle
