#include "corpus_nlohmann.hpp"
#include "writers.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace forma_bench {
namespace {

template <class T>
nlohmann::json nullable(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

// The catalog's to_json, found by argument-dependent lookup (its from_json are in
// read_nlohmann.cpp).
void to_json(nlohmann::json& j, availability in) {
    switch (in) {
    case availability::in_stock:
        j = "in_stock";
        return;
    case availability::backorder:
        j = "backorder";
        return;
    case availability::preorder:
        j = "preorder";
        return;
    case availability::discontinued:
        j = "discontinued";
        return;
    }
    throw std::runtime_error("availability without a name");
}

void to_json(nlohmann::json& j, const money& in) {
    j = nlohmann::json{{"amount", in.amount},
                       {"currency", in.currency},
                       {"discount_percent", nullable(in.discount_percent)}};
}

void to_json(nlohmann::json& j, const dimensions& in) {
    j = nlohmann::json{{"width_cm", in.width_cm},
                       {"height_cm", in.height_cm},
                       {"depth_cm", in.depth_cm},
                       {"weight_kg", in.weight_kg}};
}

void to_json(nlohmann::json& j, const review& in) {
    j = nlohmann::json{{"author", in.author},
                       {"rating", in.rating},
                       {"title", in.title},
                       {"body", in.body},
                       {"verified_purchase_date", nullable(in.verified_purchase_date)},
                       {"helpful_votes", in.helpful_votes}};
}

void to_json(nlohmann::json& j, const product& in) {
    j = nlohmann::json{{"id", in.id},
                       {"sku", in.sku},
                       {"name", in.name},
                       {"description", in.description},
                       {"category", in.category},
                       {"status", in.status},
                       {"price", in.price},
                       {"size", nullable(in.size)},
                       {"tags", in.tags},
                       {"reviews", in.reviews},
                       {"manufacturer", nullable(in.manufacturer)},
                       {"warranty_months", nullable(in.warranty_months)},
                       {"stock", in.stock},
                       {"rating", in.rating},
                       {"featured", in.featured}};
}

template <class T>
std::string write_nlohmann(const T& value) {
    return nlohmann::json(value).dump();
}

template std::string write_nlohmann<catalog>(const catalog&);
template std::string write_nlohmann<twitter::document>(const twitter::document&);
template std::string write_nlohmann<citm::document>(const citm::document&);
template std::string write_nlohmann<canada::document>(const canada::document&);

} // namespace forma_bench
