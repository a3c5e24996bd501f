#include "corpus_simdjson.hpp"
#include "simdjson_scalars.hpp"
#include "payloads.hpp"
#include "readers.hpp"

#include <simdjson.h>

#include <limits>
#include <stdexcept>

namespace forma_bench {
namespace {

namespace od = simdjson::ondemand;

static_assert(simdjson::SIMDJSON_PADDING <= input_padding, "payloads must keep simdjson's padding");

// Hand-written extraction as simdjson's documentation shows it: iterate each object's
// fields once (members may be absent or in any order) and convert values in place.

using simdjson_scalars::read;

void read(od::value v, availability& out) {
    const std::string_view text = v.get_string();
    if (text == "in_stock")
        out = availability::in_stock;
    else if (text == "backorder")
        out = availability::backorder;
    else if (text == "preorder")
        out = availability::preorder;
    else if (text == "discontinued")
        out = availability::discontinued;
    else
        throw std::runtime_error("unknown availability");
}

void read(od::value v, money& out);
void read(od::value v, dimensions& out);
void read(od::value v, review& out);
void read(od::value v, product& out);

template <class T>
void read(od::value v, std::optional<T>& out) {
    if (v.is_null())
        out.reset();
    else
        read(v, out.emplace());
}

template <class T>
void read(od::value v, std::vector<T>& out) {
    out.clear();
    for (od::value element : v.get_array())
        read(element, out.emplace_back());
}

void read(od::object object, person& out) {
    for (od::field field : object) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "name")
            read(value, out.name);
        else if (key == "age")
            read(value, out.age);
        else if (key == "occupation")
            read(value, out.occupation);
        else if (key == "email")
            read(value, out.email);
        else if (key == "verified")
            read(value, out.verified);
        else if (key == "languages")
            read(value, out.languages);
    }
}

void read(od::value v, money& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "amount")
            read(value, out.amount);
        else if (key == "currency")
            read(value, out.currency);
        else if (key == "discount_percent")
            read(value, out.discount_percent);
    }
}

void read(od::value v, dimensions& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "width_cm")
            read(value, out.width_cm);
        else if (key == "height_cm")
            read(value, out.height_cm);
        else if (key == "depth_cm")
            read(value, out.depth_cm);
        else if (key == "weight_kg")
            read(value, out.weight_kg);
    }
}

void read(od::value v, review& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "author")
            read(value, out.author);
        else if (key == "rating")
            read(value, out.rating);
        else if (key == "title")
            read(value, out.title);
        else if (key == "body")
            read(value, out.body);
        else if (key == "verified_purchase_date")
            read(value, out.verified_purchase_date);
        else if (key == "helpful_votes")
            read(value, out.helpful_votes);
    }
}

void read(od::value v, product& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "id")
            read(value, out.id);
        else if (key == "sku")
            read(value, out.sku);
        else if (key == "name")
            read(value, out.name);
        else if (key == "description")
            read(value, out.description);
        else if (key == "category")
            read(value, out.category);
        else if (key == "status")
            read(value, out.status);
        else if (key == "price")
            read(value, out.price);
        else if (key == "size")
            read(value, out.size);
        else if (key == "tags")
            read(value, out.tags);
        else if (key == "reviews")
            read(value, out.reviews);
        else if (key == "manufacturer")
            read(value, out.manufacturer);
        else if (key == "warranty_months")
            read(value, out.warranty_months);
        else if (key == "stock")
            read(value, out.stock);
        else if (key == "rating")
            read(value, out.rating);
        else if (key == "featured")
            read(value, out.featured);
    }
}

void read_document(od::document& document, person& out) {
    read(document.get_object(), out);
}

void read_document(od::document& document, catalog& out) {
    for (od::value element : document.get_array())
        read(element, out.emplace_back());
}

} // namespace

template <class T>
T read_simdjson(const std::string& json) {
    static od::parser parser; // reused: it keeps its buffers between documents
    // The payload's spare capacity is the padding: no copy into a padded_string.
    od::document document = parser.iterate(simdjson::padded_string_view(json));
    T out{};
    read_document(document, out);
    // simdjson 3.0 has no document::at_end(); past the last token there is no location.
    if (!document.current_location().error())
        throw std::runtime_error("trailing content after the JSON value");
    return out;
}

template person read_simdjson<person>(const std::string&);
template catalog read_simdjson<catalog>(const std::string&);
template twitter::document read_simdjson<twitter::document>(const std::string&);
template citm::document read_simdjson<citm::document>(const std::string&);
template canada::document read_simdjson<canada::document>(const std::string&);

} // namespace forma_bench
