#pragma once

// The C++ types the JSON reading benchmark decodes into, shared by every library.

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace forma_bench {

/// The small payload: one object, as a model might answer a one-line question.
struct person {
    std::string name;
    int age = 0;
    std::optional<std::string> occupation;
    std::string email;
    bool verified = false;
    std::vector<std::string> languages;

    friend bool operator==(const person&, const person&) = default;
};
BOOST_DESCRIBE_STRUCT(person, (), (name, age, occupation, email, verified, languages))

enum class availability { in_stock, backorder, preorder, discontinued };
BOOST_DESCRIBE_ENUM(availability, in_stock, backorder, preorder, discontinued)

struct money {
    double amount = 0;
    std::string currency;
    std::optional<double> discount_percent; // absent when there is no discount

    friend bool operator==(const money&, const money&) = default;
};
BOOST_DESCRIBE_STRUCT(money, (), (amount, currency, discount_percent))

struct dimensions {
    double width_cm = 0;
    double height_cm = 0;
    double depth_cm = 0;
    double weight_kg = 0;

    friend bool operator==(const dimensions&, const dimensions&) = default;
};
BOOST_DESCRIBE_STRUCT(dimensions, (), (width_cm, height_cm, depth_cm, weight_kg))

struct review {
    std::string author;
    int rating = 0;
    std::string title;
    std::string body;
    std::optional<std::string> verified_purchase_date; // null or absent when unverified
    std::uint32_t helpful_votes = 0;

    friend bool operator==(const review&, const review&) = default;
};
BOOST_DESCRIBE_STRUCT(review, (),
                      (author, rating, title, body, verified_purchase_date, helpful_votes))

struct product {
    std::int64_t id = 0;
    std::string sku;
    std::string name;
    std::string description;
    std::string category;
    availability status = availability::in_stock;
    money price;
    std::optional<dimensions> size; // null or absent for digital goods
    std::vector<std::string> tags;
    std::vector<review> reviews;
    std::optional<std::string> manufacturer; // null or absent
    std::optional<int> warranty_months;      // null or absent
    std::uint32_t stock = 0;
    double rating = 0;
    bool featured = false;

    friend bool operator==(const product&, const product&) = default;
};
BOOST_DESCRIBE_STRUCT(product, (),
                      (id, sku, name, description, category, status, price, size, tags, reviews,
                       manufacturer, warranty_months, stock, rating, featured))

/// The large payload: a JSON array of products, about 100 KB.
using catalog = std::vector<product>;

} // namespace forma_bench
