#pragma once

// Described types whose schemas make_instance is tried on, shared by the round-trip
// test and the oracle corpus. Length limits travel with a matching `pattern`: the
// openai_strict dialect moves minLength/maxLength into the description, where no
// generator (and no grammar-constrained model) sees them.

#include <forma/json.hpp>

#include <boost/describe.hpp>
#include <boost/mp11/list.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace instance_types {

enum class priority { low, normal, urgent };
BOOST_DESCRIBE_ENUM(priority, low, normal, urgent)

struct address {
    std::string street;
    std::string postal_code;
    std::optional<std::string> country;
};
BOOST_DESCRIBE_STRUCT(address, (), (street, postal_code, country))
FORMA_DESCRIBE_FIELDS(address,
    (postal_code, .pattern = "^[0-9]{5}$"),
    (country, .min_length = 2, .max_length = 2, .pattern = "^[A-Z]{2}$"));

struct contact {
    std::string name;
    std::int8_t level = 0;
    std::uint16_t port = 0;
    double score = 0;
    std::optional<double> ratio;
    std::string email;
    std::string id;
    std::string seen_at;
    std::string day;
    std::string at;
    std::string host;
    std::string ip4;
    std::string ip6;
    std::string wait;
    std::string code;
    priority urgency = priority::low;
    address home;
    std::optional<address> work;
};
BOOST_DESCRIBE_STRUCT(contact, (),
    (name, level, port, score, ratio, email, id, seen_at, day, at, host, ip4, ip6, wait, code,
     urgency, home, work))
FORMA_DESCRIBE_FIELDS(contact,
    (name, .description = "Full name", .min_length = 1),
    (level, .minimum = -3, .maximum = 3),
    (score, .minimum = 0, .maximum = 10),
    (ratio, .exclusive_minimum = 0, .exclusive_maximum = 1),
    (email, .format = "email"),
    (id, .format = "uuid"),
    (seen_at, .format = "date-time"),
    (day, .format = "date"),
    (at, .format = "time"),
    (host, .format = "hostname"),
    (ip4, .format = "ipv4"),
    (ip6, .format = "ipv6"),
    (wait, .format = "duration"),
    (code, .min_length = 3, .max_length = 3, .pattern = "^[A-Z]{3}$"));

struct circle {
    double radius = 0;
};
BOOST_DESCRIBE_STRUCT(circle, (), (radius))
FORMA_DESCRIBE_FIELDS(circle, (radius, .exclusive_minimum = 0));

struct rectangle {
    double width = 0;
    double height = 0;
};
BOOST_DESCRIBE_STRUCT(rectangle, (), (width, height))

struct collections {
    std::vector<int> numbers;
    std::vector<std::string> tags;
    std::array<std::int32_t, 3> triple{};
    std::map<std::string, int> counts;
    std::map<std::string, address> places;
    std::vector<std::variant<circle, rectangle>> shapes;
    std::variant<std::monostate, std::int32_t, std::string> label;
    std::optional<std::vector<priority>> priorities;
};
BOOST_DESCRIBE_STRUCT(collections, (),
    (numbers, tags, triple, counts, places, shapes, label, priorities))
FORMA_DESCRIBE_FIELDS(collections,
    (numbers, .minimum = 10, .maximum = 20, .min_items = 2, .max_items = 4),
    (tags, .max_length = 5, .max_items = 3, .pattern = "^[a-z]{1,5}$"));

struct tree {
    std::string label;
    std::vector<tree> children;
};
BOOST_DESCRIBE_STRUCT(tree, (), (label, children))

struct list_node {
    int value = 0;
    std::unique_ptr<list_node> next;
};
BOOST_DESCRIBE_STRUCT(list_node, (), (value, next))

struct org_chart {
    std::string company;
    tree root;
    std::optional<tree> shadow;
    list_node chain;
};
BOOST_DESCRIBE_STRUCT(org_chart, (), (company, root, shadow, chain))

using roots = boost::mp11::mp_list<contact, collections, tree, list_node, org_chart>;

inline constexpr const char* prompt =
    "John Smith, a 35-year-old software engineer, lives at 12 Main Street in Springfield; "
    "he prefers café au lait and writes to ÉMILE.";

} // namespace instance_types
