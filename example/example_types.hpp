#pragma once
// Types the examples and tools/forma-schema share: each described once, for the schema
// forma sends to the model and the parser that reads the answer back.

#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

#include <optional>
#include <string>
#include <vector>

namespace example {

/// The simplest answer: a flat object with one optional member.
struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation))
FORMA_DESCRIBE_TYPE(person, .description = "A person mentioned in the text");
FORMA_DESCRIBE_FIELDS(person,
    (name, .description = "Full name", .min_length = 1),
    (age, .description = "Age in years", .minimum = 0, .maximum = 150),
    (occupation, .description = "Job title, if the text gives one"));

struct postal_address {
    std::string street;
    std::string city;
    std::optional<std::string> postal_code;
    std::string country;
};
BOOST_DESCRIBE_STRUCT(postal_address, (), (street, city, postal_code, country))
FORMA_DESCRIBE_TYPE(postal_address, .description = "A postal address");
FORMA_DESCRIBE_FIELDS(postal_address,
    (country, .description = "Country name in English"));

/// Nesting, arrays and an optional nested object.
struct contact_card {
    person holder;
    std::vector<std::string> emails;
    std::vector<std::string> phone_numbers;
    std::optional<postal_address> address;
};
BOOST_DESCRIBE_STRUCT(contact_card, (), (holder, emails, phone_numbers, address))
FORMA_DESCRIBE_TYPE(contact_card, .description = "Contact details of one person");
FORMA_DESCRIBE_FIELDS(contact_card,
    (emails, .description = "Email addresses", .format = "email"),
    (phone_numbers, .description = "Phone numbers as written in the text"));

enum class ticket_category { billing, technical, account, other };
BOOST_DESCRIBE_ENUM(ticket_category, billing, technical, account, other)

enum class ticket_priority { low, normal, urgent };
BOOST_DESCRIBE_ENUM(ticket_priority, low, normal, urgent)

/// Enums, a bounded array, optional members and a nested type used twice in one schema.
struct support_ticket {
    std::string summary;
    ticket_category category = ticket_category::other;
    ticket_priority priority = ticket_priority::normal;
    person customer;
    std::optional<std::string> order_id;
    std::vector<std::string> tags;
    std::optional<person> assignee;
};
BOOST_DESCRIBE_STRUCT(support_ticket, (),
                      (summary, category, priority, customer, order_id, tags, assignee))
FORMA_DESCRIBE_TYPE(support_ticket, .description = "A customer support request, triaged");
FORMA_DESCRIBE_FIELDS(support_ticket,
    (summary, .description = "One sentence on what the customer needs", .max_length = 200),
    (tags, .description = "Short keywords", .max_items = 5),
    (assignee, .description = "The agent the text assigns the ticket to, if any"));

} // namespace example
