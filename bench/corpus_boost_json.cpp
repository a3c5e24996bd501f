// The Boost.JSON conversions declared in corpus_boost_json.hpp: Boost's described conversion
// with absent optionals left empty and the JSON name of twitter's "protected".

#include "corpus_boost_json.hpp"
#include "boost_json_described.hpp"

#include <boost/describe/members.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>
#include <boost/mp11/algorithm.hpp>

#include <string_view>
#include <type_traits>

namespace forma_bench::twitter {
namespace {

/// "protected" is a C++ keyword: user's member is is_protected.
constexpr std::string_view json_name(std::string_view member) {
    return member == "is_protected" ? "protected" : member;
}

template <class T>
boost::json::result<T> described_with_absent_optionals(const boost::json::value& jv) {
    return forma_bench::described_with_absent_optionals<T>(jv, json_name);
}

/// Boost's described conversion to an object, with JSON names.
template <class T>
void described_to_object(boost::json::value& jv, const T& from) {
    boost::json::object& object = jv.emplace_object();
    using members = boost::describe::describe_members<T, boost::describe::mod_public>;
    object.reserve(boost::mp11::mp_size<members>::value);
    boost::mp11::mp_for_each<members>([&](auto D) {
        object.emplace(json_name(D.name),
                       boost::json::value_from(from.*D.pointer, object.storage()));
    });
}

} // namespace

boost::json::result<user> tag_invoke(boost::json::try_value_to_tag<user>,
                                     const boost::json::value& jv) {
    return described_with_absent_optionals<user>(jv);
}
boost::json::result<user_entities> tag_invoke(boost::json::try_value_to_tag<user_entities>,
                                              const boost::json::value& jv) {
    return described_with_absent_optionals<user_entities>(jv);
}
boost::json::result<media_entity> tag_invoke(boost::json::try_value_to_tag<media_entity>,
                                             const boost::json::value& jv) {
    return described_with_absent_optionals<media_entity>(jv);
}
boost::json::result<status_entities> tag_invoke(boost::json::try_value_to_tag<status_entities>,
                                                const boost::json::value& jv) {
    return described_with_absent_optionals<status_entities>(jv);
}
boost::json::result<status> tag_invoke(boost::json::try_value_to_tag<status>,
                                       const boost::json::value& jv) {
    return described_with_absent_optionals<status>(jv);
}
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, const user& from) {
    described_to_object(jv, from);
}

boost::json::result<std::unique_ptr<status>>
tag_invoke(boost::json::try_value_to_tag<std::unique_ptr<status>>, const boost::json::value& jv) {
    if (jv.is_null()) return std::unique_ptr<status>();
    auto converted = boost::json::try_value_to<status>(jv);
    if (!converted) return converted.error();
    return std::make_unique<status>(std::move(*converted));
}
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                const std::unique_ptr<status>& from) {
    if (from)
        boost::json::value_from(*from, jv);
    else
        jv = nullptr;
}

} // namespace forma_bench::twitter
