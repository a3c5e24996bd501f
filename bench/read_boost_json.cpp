#include "readers.hpp"

#include <boost/describe/members.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value_to.hpp>
#include <boost/mp11/algorithm.hpp>

#include <optional>
#include <type_traits>

namespace forma_bench {
namespace {

template <class T>
constexpr bool is_optional_v = false;
template <class T>
constexpr bool is_optional_v<std::optional<T>> = true;

/// Boost 1.81 converts a described struct only when the object has exactly its members,
/// so an absent optional member fails. This is the same conversion with absent optionals
/// left empty (and other members still required).
template <class T>
boost::json::result<T> described_with_absent_optionals(const boost::json::value& jv) {
    const boost::json::object* object = jv.if_object();
    if (!object) return boost::json::make_error_code(boost::json::error::not_object);
    T out{};
    boost::system::error_code ec;
    using members = boost::describe::describe_members<T, boost::describe::mod_public>;
    boost::mp11::mp_for_each<members>([&](auto D) {
        if (ec) return;
        using M = std::remove_cvref_t<decltype(out.*D.pointer)>;
        const boost::json::value* member = object->if_contains(D.name);
        if (!member) {
            if constexpr (!is_optional_v<M>)
                ec = boost::json::make_error_code(boost::json::error::unknown_name);
            return;
        }
        auto converted = boost::json::try_value_to<M>(*member);
        if (!converted) {
            ec = converted.error();
            return;
        }
        out.*D.pointer = std::move(*converted);
    });
    if (ec) return ec;
    return out;
}

} // namespace

// Found by argument-dependent lookup; person and dimensions use Boost's own conversion.
boost::json::result<money> tag_invoke(boost::json::try_value_to_tag<money>,
                                      const boost::json::value& jv) {
    return described_with_absent_optionals<money>(jv);
}
boost::json::result<review> tag_invoke(boost::json::try_value_to_tag<review>,
                                       const boost::json::value& jv) {
    return described_with_absent_optionals<review>(jv);
}
boost::json::result<product> tag_invoke(boost::json::try_value_to_tag<product>,
                                        const boost::json::value& jv) {
    return described_with_absent_optionals<product>(jv);
}

template <class T>
T read_boost_json(const std::string& json) {
    // A monotonic resource is what Boost.JSON recommends for parse-then-discard.
    boost::json::monotonic_resource resource;
    const boost::json::value document = boost::json::parse(json, &resource);
    return boost::json::value_to<T>(document);
}

template person read_boost_json<person>(const std::string&);
template catalog read_boost_json<catalog>(const std::string&);

} // namespace forma_bench
