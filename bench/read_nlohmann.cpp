#include "corpus_nlohmann.hpp"
#include "nlohmann_optional.hpp"
#include "readers.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace forma_bench {

// Hand-written conversions, found by argument-dependent lookup.
void from_json(const nlohmann::json& j, availability& out) {
    const auto& text = j.get_ref<const std::string&>();
    if (text == "in_stock")
        out = availability::in_stock;
    else if (text == "backorder")
        out = availability::backorder;
    else if (text == "preorder")
        out = availability::preorder;
    else if (text == "discontinued")
        out = availability::discontinued;
    else
        throw std::runtime_error("unknown availability " + text);
}

void from_json(const nlohmann::json& j, person& out) {
    j.at("name").get_to(out.name);
    j.at("age").get_to(out.age);
    get_optional(j, "occupation", out.occupation);
    j.at("email").get_to(out.email);
    j.at("verified").get_to(out.verified);
    j.at("languages").get_to(out.languages);
}

void from_json(const nlohmann::json& j, money& out) {
    j.at("amount").get_to(out.amount);
    j.at("currency").get_to(out.currency);
    get_optional(j, "discount_percent", out.discount_percent);
}

void from_json(const nlohmann::json& j, dimensions& out) {
    j.at("width_cm").get_to(out.width_cm);
    j.at("height_cm").get_to(out.height_cm);
    j.at("depth_cm").get_to(out.depth_cm);
    j.at("weight_kg").get_to(out.weight_kg);
}

void from_json(const nlohmann::json& j, review& out) {
    j.at("author").get_to(out.author);
    j.at("rating").get_to(out.rating);
    j.at("title").get_to(out.title);
    j.at("body").get_to(out.body);
    get_optional(j, "verified_purchase_date", out.verified_purchase_date);
    j.at("helpful_votes").get_to(out.helpful_votes);
}

void from_json(const nlohmann::json& j, product& out) {
    j.at("id").get_to(out.id);
    j.at("sku").get_to(out.sku);
    j.at("name").get_to(out.name);
    j.at("description").get_to(out.description);
    j.at("category").get_to(out.category);
    j.at("status").get_to(out.status);
    j.at("price").get_to(out.price);
    get_optional(j, "size", out.size);
    j.at("tags").get_to(out.tags);
    j.at("reviews").get_to(out.reviews);
    get_optional(j, "manufacturer", out.manufacturer);
    get_optional(j, "warranty_months", out.warranty_months);
    j.at("stock").get_to(out.stock);
    j.at("rating").get_to(out.rating);
    j.at("featured").get_to(out.featured);
}

template <class T>
T read_nlohmann(const std::string& json) {
    return nlohmann::json::parse(json).get<T>();
}

template person read_nlohmann<person>(const std::string&);
template catalog read_nlohmann<catalog>(const std::string&);
template twitter::document read_nlohmann<twitter::document>(const std::string&);
template citm::document read_nlohmann<citm::document>(const std::string&);
template canada::document read_nlohmann<canada::document>(const std::string&);

} // namespace forma_bench
