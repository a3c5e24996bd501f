#pragma once

// The Boost.JSON conversions the corpus types need beyond Boost 1.81's own (corpus_boost_json.cpp):
// it converts a described struct only from an object with exactly its members, and knows neither
// std::unique_ptr nor a JSON name that differs from the C++ one. Found by argument-dependent
// lookup; every other corpus type uses Boost's described conversion.

#include "corpus_types.hpp"

#include <boost/json/value.hpp>

namespace forma_bench::twitter {

// Members that may be absent: user (profile_banner_url, and "protected" is is_protected),
// user_entities (url), media_entity (source_status_id...), status_entities (media), status
// (retweeted_status, possibly_sensitive).
boost::json::result<user> tag_invoke(boost::json::try_value_to_tag<user>,
                                     const boost::json::value& jv);
boost::json::result<user_entities> tag_invoke(boost::json::try_value_to_tag<user_entities>,
                                              const boost::json::value& jv);
boost::json::result<media_entity> tag_invoke(boost::json::try_value_to_tag<media_entity>,
                                             const boost::json::value& jv);
boost::json::result<status_entities> tag_invoke(boost::json::try_value_to_tag<status_entities>,
                                                const boost::json::value& jv);
boost::json::result<status> tag_invoke(boost::json::try_value_to_tag<status>,
                                       const boost::json::value& jv);
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv, const user& from);

// A retweeted status: null or absent when there is none.
boost::json::result<std::unique_ptr<status>>
tag_invoke(boost::json::try_value_to_tag<std::unique_ptr<status>>, const boost::json::value& jv);
void tag_invoke(boost::json::value_from_tag, boost::json::value& jv,
                const std::unique_ptr<status>& from);

} // namespace forma_bench::twitter
