#pragma once

// The C++ types of the standard JSON corpus (bench/data: twitter.json, citm_catalog.json,
// canada.json), shared by every library the JSON benchmark compares. Every member that
// occurs in the documents is declared, in the documents' order, one struct per kind of
// object. std::optional marks members that are null or absent in some objects; members
// that are null in every object of the document are std::optional<std::string> where the
// name says text, std::monostate (null only) where the API's value is an object or array
// that the document never shows.

#include <forma/reflect/field_info.hpp>

#include <boost/describe/class.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace forma_bench {

// twitter.json: 100 statuses of Twitter's search API (v1.1), 73 of them retweets.
namespace twitter {

struct metadata {
    std::string result_type;
    std::string iso_language_code;

    friend bool operator==(const metadata&, const metadata&) = default;
};
BOOST_DESCRIBE_STRUCT(metadata, (), (result_type, iso_language_code))

/// A link in a text: `indices` are its first and one-past-last character offsets.
struct url_entity {
    std::string url;
    std::string expanded_url;
    std::string display_url;
    std::array<int, 2> indices{};

    friend bool operator==(const url_entity&, const url_entity&) = default;
};
BOOST_DESCRIBE_STRUCT(url_entity, (), (url, expanded_url, display_url, indices))

struct url_list {
    std::vector<url_entity> urls;

    friend bool operator==(const url_list&, const url_list&) = default;
};
BOOST_DESCRIBE_STRUCT(url_list, (), (urls))

struct user_entities {
    std::optional<url_list> url; // absent when the profile has no link
    url_list description;

    friend bool operator==(const user_entities&, const user_entities&) = default;
};
BOOST_DESCRIBE_STRUCT(user_entities, (), (url, description))

struct user {
    std::uint64_t id = 0;
    std::string id_str;
    std::string name;
    std::string screen_name;
    std::string location;
    std::string description;
    std::optional<std::string> url;
    user_entities entities;
    bool is_protected = false; // "protected" in JSON
    int followers_count = 0;
    int friends_count = 0;
    int listed_count = 0;
    std::string created_at;
    int favourites_count = 0;
    std::optional<int> utc_offset;
    std::optional<std::string> time_zone;
    bool geo_enabled = false;
    bool verified = false;
    int statuses_count = 0;
    std::string lang;
    bool contributors_enabled = false;
    bool is_translator = false;
    bool is_translation_enabled = false;
    std::string profile_background_color;
    std::string profile_background_image_url;
    std::string profile_background_image_url_https;
    bool profile_background_tile = false;
    std::string profile_image_url;
    std::string profile_image_url_https;
    std::optional<std::string> profile_banner_url; // absent when there is no banner
    std::string profile_link_color;
    std::string profile_sidebar_border_color;
    std::string profile_sidebar_fill_color;
    std::string profile_text_color;
    bool profile_use_background_image = false;
    bool default_profile = false;
    bool default_profile_image = false;
    bool following = false;
    bool follow_request_sent = false;
    bool notifications = false;

    friend bool operator==(const user&, const user&) = default;
};
BOOST_DESCRIBE_STRUCT(
    user, (),
    (id, id_str, name, screen_name, location, description, url, entities, is_protected,
     followers_count, friends_count, listed_count, created_at, favourites_count, utc_offset,
     time_zone, geo_enabled, verified, statuses_count, lang, contributors_enabled, is_translator,
     is_translation_enabled, profile_background_color, profile_background_image_url,
     profile_background_image_url_https, profile_background_tile, profile_image_url,
     profile_image_url_https, profile_banner_url, profile_link_color, profile_sidebar_border_color,
     profile_sidebar_fill_color, profile_text_color, profile_use_background_image, default_profile,
     default_profile_image, following, follow_request_sent, notifications))
FORMA_DESCRIBE_FIELDS(user, (is_protected, .json_name = "protected"));

/// A hashtag, and a cashtag ("symbols", the same shape; empty in this document).
struct hashtag {
    std::string text;
    std::array<int, 2> indices{};

    friend bool operator==(const hashtag&, const hashtag&) = default;
};
BOOST_DESCRIBE_STRUCT(hashtag, (), (text, indices))

struct user_mention {
    std::string screen_name;
    std::string name;
    std::uint64_t id = 0;
    std::string id_str;
    std::array<int, 2> indices{};

    friend bool operator==(const user_mention&, const user_mention&) = default;
};
BOOST_DESCRIBE_STRUCT(user_mention, (), (screen_name, name, id, id_str, indices))

struct media_size {
    int w = 0;
    int h = 0;
    std::string resize;

    friend bool operator==(const media_size&, const media_size&) = default;
};
BOOST_DESCRIBE_STRUCT(media_size, (), (w, h, resize))

struct media_sizes {
    media_size medium;
    media_size small;
    media_size thumb;
    media_size large;

    friend bool operator==(const media_sizes&, const media_sizes&) = default;
};
BOOST_DESCRIBE_STRUCT(media_sizes, (), (medium, small, thumb, large))

struct media_entity {
    std::uint64_t id = 0;
    std::string id_str;
    std::array<int, 2> indices{};
    std::string media_url;
    std::string media_url_https;
    std::string url;
    std::string display_url;
    std::string expanded_url;
    std::string type;
    media_sizes sizes;
    std::optional<std::uint64_t> source_status_id; // absent unless the media is from another status
    std::optional<std::string> source_status_id_str;

    friend bool operator==(const media_entity&, const media_entity&) = default;
};
BOOST_DESCRIBE_STRUCT(media_entity, (),
                      (id, id_str, indices, media_url, media_url_https, url, display_url,
                       expanded_url, type, sizes, source_status_id, source_status_id_str))

struct status_entities {
    std::vector<hashtag> hashtags;
    std::vector<hashtag> symbols;
    std::vector<url_entity> urls;
    std::vector<user_mention> user_mentions;
    std::optional<std::vector<media_entity>> media; // absent when there is none

    friend bool operator==(const status_entities&, const status_entities&) = default;
};
BOOST_DESCRIBE_STRUCT(status_entities, (), (hashtags, symbols, urls, user_mentions, media))

struct status {
    twitter::metadata metadata;
    std::string created_at;
    std::uint64_t id = 0;
    std::string id_str;
    std::string text;
    std::string source;
    bool truncated = false;
    std::optional<std::uint64_t> in_reply_to_status_id;
    std::optional<std::string> in_reply_to_status_id_str;
    std::optional<std::uint64_t> in_reply_to_user_id;
    std::optional<std::string> in_reply_to_user_id_str;
    std::optional<std::string> in_reply_to_screen_name;
    twitter::user user;
    std::monostate geo;          // null in every status here (a GeoJSON point in the API)
    std::monostate coordinates;  // likewise
    std::monostate place;        // likewise (a place object in the API)
    std::monostate contributors; // likewise (an array in the API)
    std::unique_ptr<status> retweeted_status; // absent unless this status is a retweet
    int retweet_count = 0;
    int favorite_count = 0;
    status_entities entities;
    bool favorited = false;
    bool retweeted = false;
    std::optional<bool> possibly_sensitive; // absent unless the status has a link
    std::string lang;

    /// Deep: two retweets are equal when the statuses they retweet are.
    friend bool operator==(const status& a, const status& b);
};
BOOST_DESCRIBE_STRUCT(status, (),
                      (metadata, created_at, id, id_str, text, source, truncated,
                       in_reply_to_status_id, in_reply_to_status_id_str, in_reply_to_user_id,
                       in_reply_to_user_id_str, in_reply_to_screen_name, user, geo, coordinates,
                       place, contributors, retweeted_status, retweet_count, favorite_count,
                       entities, favorited, retweeted, possibly_sensitive, lang))

inline bool operator==(const status& a, const status& b) {
    const bool same_retweet = a.retweeted_status && b.retweeted_status
                                  ? *a.retweeted_status == *b.retweeted_status
                                  : !a.retweeted_status && !b.retweeted_status;
    return same_retweet && a.metadata == b.metadata && a.created_at == b.created_at &&
           a.id == b.id && a.id_str == b.id_str && a.text == b.text && a.source == b.source &&
           a.truncated == b.truncated && a.in_reply_to_status_id == b.in_reply_to_status_id &&
           a.in_reply_to_status_id_str == b.in_reply_to_status_id_str &&
           a.in_reply_to_user_id == b.in_reply_to_user_id &&
           a.in_reply_to_user_id_str == b.in_reply_to_user_id_str &&
           a.in_reply_to_screen_name == b.in_reply_to_screen_name && a.user == b.user &&
           a.retweet_count == b.retweet_count && a.favorite_count == b.favorite_count &&
           a.entities == b.entities && a.favorited == b.favorited && a.retweeted == b.retweeted &&
           a.possibly_sensitive == b.possibly_sensitive &&
           a.lang == b.lang; // geo, coordinates, place, contributors: always equal
}

struct search_metadata {
    double completed_in = 0;
    std::uint64_t max_id = 0;
    std::string max_id_str;
    std::string next_results;
    std::string query;
    std::string refresh_url;
    int count = 0;
    std::uint64_t since_id = 0;
    std::string since_id_str;

    friend bool operator==(const search_metadata&, const search_metadata&) = default;
};
BOOST_DESCRIBE_STRUCT(search_metadata, (),
                      (completed_in, max_id, max_id_str, next_results, query, refresh_url, count,
                       since_id, since_id_str))

struct document {
    std::vector<status> statuses;
    twitter::search_metadata search_metadata;

    friend bool operator==(const document&, const document&) = default;
};
BOOST_DESCRIBE_STRUCT(document, (), (statuses, search_metadata))

} // namespace twitter

// citm_catalog.json: a ticketing catalog (events, performances and the names of their
// ids), with ids as object keys.
namespace citm {

struct event {
    std::optional<std::string> description; // null in every event here
    int id = 0;
    std::optional<std::string> logo;
    std::string name;
    std::vector<int> subTopicIds;
    std::optional<std::string> subjectCode; // null in every event here
    std::optional<std::string> subtitle;    // null in every event here
    std::vector<int> topicIds;

    friend bool operator==(const event&, const event&) = default;
};
BOOST_DESCRIBE_STRUCT(event, (),
                      (description, id, logo, name, subTopicIds, subjectCode, subtitle, topicIds))

struct price {
    int amount = 0;
    int audienceSubCategoryId = 0;
    int seatCategoryId = 0;

    friend bool operator==(const price&, const price&) = default;
};
BOOST_DESCRIBE_STRUCT(price, (), (amount, audienceSubCategoryId, seatCategoryId))

struct area {
    int areaId = 0;
    std::vector<int> blockIds; // empty in every area here

    friend bool operator==(const area&, const area&) = default;
};
BOOST_DESCRIBE_STRUCT(area, (), (areaId, blockIds))

struct seat_category {
    std::vector<area> areas;
    int seatCategoryId = 0;

    friend bool operator==(const seat_category&, const seat_category&) = default;
};
BOOST_DESCRIBE_STRUCT(seat_category, (), (areas, seatCategoryId))

struct performance {
    int eventId = 0;
    int id = 0;
    std::optional<std::string> logo;
    std::optional<std::string> name; // null in every performance here
    std::vector<price> prices;
    std::vector<seat_category> seatCategories;
    std::optional<std::string> seatMapImage; // null in every performance here
    std::int64_t start = 0;                  // milliseconds since 1970
    std::string venueCode;

    friend bool operator==(const performance&, const performance&) = default;
};
BOOST_DESCRIBE_STRUCT(performance, (),
                      (eventId, id, logo, name, prices, seatCategories, seatMapImage, start,
                       venueCode))

/// Names by id (the key), and the events by id.
using names = std::map<std::string, std::string>;

struct document {
    names areaNames;
    names audienceSubCategoryNames;
    names blockNames; // {} here
    std::map<std::string, event> events;
    std::vector<performance> performances;
    names seatCategoryNames;
    names subTopicNames;
    names subjectNames; // {} here
    names topicNames;
    std::map<std::string, std::vector<int>> topicSubTopics;
    names venueNames;

    friend bool operator==(const document&, const document&) = default;
};
BOOST_DESCRIBE_STRUCT(document, (),
                      (areaNames, audienceSubCategoryNames, blockNames, events, performances,
                       seatCategoryNames, subTopicNames, subjectNames, topicNames, topicSubTopics,
                       venueNames))

} // namespace citm

// canada.json: the border of Canada as one GeoJSON polygon (480 rings, 55,563 points).
namespace canada {

struct properties {
    std::string name;

    friend bool operator==(const properties&, const properties&) = default;
};
BOOST_DESCRIBE_STRUCT(properties, (), (name))

/// Rings of [longitude, latitude] points.
struct geometry {
    std::string type;
    std::vector<std::vector<std::array<double, 2>>> coordinates;

    friend bool operator==(const geometry&, const geometry&) = default;
};
BOOST_DESCRIBE_STRUCT(geometry, (), (type, coordinates))

struct feature {
    std::string type;
    canada::properties properties;
    canada::geometry geometry;

    friend bool operator==(const feature&, const feature&) = default;
};
BOOST_DESCRIBE_STRUCT(feature, (), (type, properties, geometry))

struct document {
    std::string type;
    std::vector<feature> features;

    friend bool operator==(const document&, const document&) = default;
};
BOOST_DESCRIBE_STRUCT(document, (), (type, features))

} // namespace canada
} // namespace forma_bench
