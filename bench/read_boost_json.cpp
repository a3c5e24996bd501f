#include "corpus_boost_json.hpp"
#include "boost_json_described.hpp"
#include "readers.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value_to.hpp>

namespace forma_bench {

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
template twitter::document read_boost_json<twitter::document>(const std::string&);
template citm::document read_boost_json<citm::document>(const std::string&);
template canada::document read_boost_json<canada::document>(const std::string&);

} // namespace forma_bench
