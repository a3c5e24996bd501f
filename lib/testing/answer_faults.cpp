#include "answer_faults.hpp"

#include <boost/json/serialize.hpp>

#include <string_view>

namespace forma::testing::detail {

namespace json = boost::json;

bool fault_drawn(std::uint64_t seed, double rate) noexcept {
    // splitmix64: neighbouring seeds give unrelated draws.
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) / static_cast<double>(1ull << 53) < rate;
}

namespace {

// The first member of `answer` (in the schema's order) whose value `pick` takes.
template <class Pick>
json::value* first_member(json::object& answer, const json::object& schema, Pick pick) {
    const json::value* properties = schema.if_contains("properties");
    if (!properties || !properties->is_object()) return nullptr;
    for (const auto& property : properties->get_object())
        if (auto it = answer.find(property.key()); it != answer.end() && pick(it->value())) return &it->value();
    return nullptr;
}

void break_a_type(json::object& answer, const json::object& schema) {
    json::value* member = first_member(answer, schema, [](const json::value& v) {
        return v.is_number() || v.is_string() || v.is_bool();
    });
    if (!member) return;
    if (member->is_number()) *member = json::serialize(*member) + " years";
    else if (member->is_string()) *member = 42;
    else *member = "yes";
}

void drop_a_required_member(json::object& answer, const json::object& schema) {
    const json::value* required = schema.if_contains("required");
    if (!required || !required->is_array()) return;
    for (const json::value& name : required->get_array())
        if (name.is_string() && answer.erase(name.get_string()) > 0) return;
}

void empty_a_string(json::object& answer, const json::object& schema) {
    if (json::value* member = first_member(answer, schema, [](const json::value& v) { return v.is_string(); }))
        *member = "";
}

// The first half of `text`, cut between characters.
std::string cut_in_half(const std::string& text) {
    std::size_t cut = text.size() / 2;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return text.substr(0, cut);
}

} // namespace

std::string with_fault(json::value answer, const json::object& schema, answer_fault fault) {
    if (json::object* object = answer.if_object()) {
        switch (fault) {
        case answer_fault::wrong_type: break_a_type(*object, schema); break;
        case answer_fault::missing_member: drop_a_required_member(*object, schema); break;
        case answer_fault::short_string: empty_a_string(*object, schema); break;
        default: break;
        }
    }
    std::string text = json::serialize(answer);
    if (fault == answer_fault::cut_json) return cut_in_half(text);
    if (fault == answer_fault::prose_around)
        return "Sure! Here is the JSON you asked for:\n" + text + "\nLet me know if you need anything else.";
    return text;
}

} // namespace forma::testing::detail
