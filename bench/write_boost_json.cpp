#include "corpus_boost_json.hpp"
#include "writers.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

namespace forma_bench {

template <class T>
std::string write_boost_json(const T& value) {
    // The value tree is discarded once serialized: a monotonic resource, as for reading.
    boost::json::monotonic_resource resource;
    return boost::json::serialize(boost::json::value_from(value, &resource));
}

// The catalog's structs and enum use Boost's described conversion (null for empty optionals).
template std::string write_boost_json<catalog>(const catalog&);
template std::string write_boost_json<twitter::document>(const twitter::document&);
template std::string write_boost_json<citm::document>(const citm::document&);
template std::string write_boost_json<canada::document>(const canada::document&);

} // namespace forma_bench
