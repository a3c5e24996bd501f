#include <forma/model/usage_details.hpp>

#include "json_support.hpp"

#include <limits>

namespace forma {
namespace {

std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept {
    std::int64_t sum;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

void add_count(std::optional<std::int64_t>& into, const std::optional<std::int64_t>& other) noexcept {
    if (!other) return;
    into = into ? saturating_add(*into, *other) : *other;
}

// Member names in JSON, in the order they are written.
constexpr std::string_view input_key = "input_token_count";
constexpr std::string_view output_key = "output_token_count";
constexpr std::string_view total_key = "total_token_count";
constexpr std::string_view cached_key = "cached_input_token_count";
constexpr std::string_view reasoning_key = "reasoning_token_count";
constexpr std::string_view additional_key = "additional_counts";

} // namespace

usage_details& usage_details::operator+=(const usage_details& other) {
    add_count(input_token_count, other.input_token_count);
    add_count(output_token_count, other.output_token_count);
    add_count(total_token_count, other.total_token_count);
    add_count(cached_input_token_count, other.cached_input_token_count);
    add_count(reasoning_token_count, other.reasoning_token_count);
    for (const auto& [name, count] : other.additional_counts) {
        auto [it, inserted] = additional_counts.try_emplace(name, count);
        if (!inserted) it->second = saturating_add(it->second, count);
    }
    return *this;
}

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const usage_details& usage) {
    boost::json::object& o = json.emplace_object();
    auto put = [&](std::string_view key, const std::optional<std::int64_t>& count) {
        if (count) o[key] = *count;
    };
    put(input_key, usage.input_token_count);
    put(output_key, usage.output_token_count);
    put(total_key, usage.total_token_count);
    put(cached_key, usage.cached_input_token_count);
    put(reasoning_key, usage.reasoning_token_count);
    if (!usage.additional_counts.empty()) {
        boost::json::object& counts = o[additional_key].emplace_object();
        for (const auto& [name, count] : usage.additional_counts) counts[name] = count;
    }
}

usage_details tag_invoke(boost::json::value_to_tag<usage_details>, const boost::json::value& json) {
    using namespace model_detail;
    const boost::json::object& o = expect_object(json, "usage");
    usage_details usage;
    usage.input_token_count = read_optional_int(o, input_key);
    usage.output_token_count = read_optional_int(o, output_key);
    usage.total_token_count = read_optional_int(o, total_key);
    usage.cached_input_token_count = read_optional_int(o, cached_key);
    usage.reasoning_token_count = read_optional_int(o, reasoning_key);
    const boost::json::object counts = read_object(o, additional_key);
    at_member(additional_key, [&] {
        for (const auto& member : counts) {
            const std::optional<std::int64_t> count = read_optional_int(counts, member.key());
            if (!count) fail_type(member_path(member.key()), "64-bit integer", member.value());
            usage.additional_counts.emplace(std::string(member.key()), *count);
        }
    });
    return usage;
}

} // namespace forma
