// The corpus documents read with simdjson on-demand, written as its documentation shows:
// each object's fields iterated once (members in any order, unknown ones skipped), values
// converted in place; an absent optional stays empty and null empties it.

#include "corpus_simdjson.hpp"
#include "simdjson_scalars.hpp"

#include <limits>
#include <stdexcept>
#include <string_view>

namespace forma_bench {
namespace {

namespace od = simdjson::ondemand;

using simdjson_scalars::read;

void read(od::value v, twitter::metadata& out);
void read(od::value v, twitter::url_entity& out);
void read(od::value v, twitter::url_list& out);
void read(od::value v, twitter::user_entities& out);
void read(od::value v, twitter::user& out);
void read(od::value v, twitter::hashtag& out);
void read(od::value v, twitter::user_mention& out);
void read(od::value v, twitter::media_size& out);
void read(od::value v, twitter::media_sizes& out);
void read(od::value v, twitter::media_entity& out);
void read(od::value v, twitter::status_entities& out);
void read(od::value v, twitter::status& out);
void read(od::value v, twitter::search_metadata& out);
void read(od::value v, citm::event& out);
void read(od::value v, citm::price& out);
void read(od::value v, citm::area& out);
void read(od::value v, citm::seat_category& out);
void read(od::value v, citm::performance& out);
void read(od::value v, canada::properties& out);
void read(od::value v, canada::geometry& out);
void read(od::value v, canada::feature& out);

template <class T>
void read(od::value v, std::optional<T>& out);
template <class T>
void read(od::value v, std::unique_ptr<T>& out);
template <class T>
void read(od::value v, std::vector<T>& out);
template <class T, std::size_t N>
void read(od::value v, std::array<T, N>& out);
template <class T>
void read(od::value v, std::map<std::string, T>& out);

template <class T>
void read(od::value v, std::optional<T>& out) {
    if (v.is_null())
        out.reset();
    else
        read(v, out.emplace());
}

template <class T>
void read(od::value v, std::unique_ptr<T>& out) {
    if (v.is_null()) {
        out.reset();
    } else {
        out = std::make_unique<T>();
        read(v, *out);
    }
}

template <class T>
void read(od::value v, std::vector<T>& out) {
    out.clear();
    for (od::value element : v.get_array())
        read(element, out.emplace_back());
}

template <class T, std::size_t N>
void read(od::value v, std::array<T, N>& out) {
    std::size_t i = 0;
    for (od::value element : v.get_array()) {
        if (i == N) throw std::runtime_error("too many array elements");
        read(element, out[i++]);
    }
    if (i != N) throw std::runtime_error("too few array elements");
}

template <class T>
void read(od::value v, std::map<std::string, T>& out) {
    out.clear();
    for (od::field field : v.get_object()) {
        std::string key(std::string_view(field.unescaped_key()));
        read(field.value(), out[std::move(key)]);
    }
}

// twitter.json

void read(od::value v, twitter::metadata& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "result_type")
            read(value, out.result_type);
        else if (key == "iso_language_code")
            read(value, out.iso_language_code);
    }
}

void read(od::value v, twitter::url_entity& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "url")
            read(value, out.url);
        else if (key == "expanded_url")
            read(value, out.expanded_url);
        else if (key == "display_url")
            read(value, out.display_url);
        else if (key == "indices")
            read(value, out.indices);
    }
}

void read(od::value v, twitter::url_list& out) {
    for (od::field field : v.get_object()) {
        if (field.key() == "urls") read(field.value(), out.urls);
    }
}

void read(od::value v, twitter::user_entities& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "url")
            read(value, out.url);
        else if (key == "description")
            read(value, out.description);
    }
}

void read(od::value v, twitter::user& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "id")
            read(value, out.id);
        else if (key == "id_str")
            read(value, out.id_str);
        else if (key == "name")
            read(value, out.name);
        else if (key == "screen_name")
            read(value, out.screen_name);
        else if (key == "location")
            read(value, out.location);
        else if (key == "description")
            read(value, out.description);
        else if (key == "url")
            read(value, out.url);
        else if (key == "entities")
            read(value, out.entities);
        else if (key == "protected")
            read(value, out.is_protected);
        else if (key == "followers_count")
            read(value, out.followers_count);
        else if (key == "friends_count")
            read(value, out.friends_count);
        else if (key == "listed_count")
            read(value, out.listed_count);
        else if (key == "created_at")
            read(value, out.created_at);
        else if (key == "favourites_count")
            read(value, out.favourites_count);
        else if (key == "utc_offset")
            read(value, out.utc_offset);
        else if (key == "time_zone")
            read(value, out.time_zone);
        else if (key == "geo_enabled")
            read(value, out.geo_enabled);
        else if (key == "verified")
            read(value, out.verified);
        else if (key == "statuses_count")
            read(value, out.statuses_count);
        else if (key == "lang")
            read(value, out.lang);
        else if (key == "contributors_enabled")
            read(value, out.contributors_enabled);
        else if (key == "is_translator")
            read(value, out.is_translator);
        else if (key == "is_translation_enabled")
            read(value, out.is_translation_enabled);
        else if (key == "profile_background_color")
            read(value, out.profile_background_color);
        else if (key == "profile_background_image_url")
            read(value, out.profile_background_image_url);
        else if (key == "profile_background_image_url_https")
            read(value, out.profile_background_image_url_https);
        else if (key == "profile_background_tile")
            read(value, out.profile_background_tile);
        else if (key == "profile_image_url")
            read(value, out.profile_image_url);
        else if (key == "profile_image_url_https")
            read(value, out.profile_image_url_https);
        else if (key == "profile_banner_url")
            read(value, out.profile_banner_url);
        else if (key == "profile_link_color")
            read(value, out.profile_link_color);
        else if (key == "profile_sidebar_border_color")
            read(value, out.profile_sidebar_border_color);
        else if (key == "profile_sidebar_fill_color")
            read(value, out.profile_sidebar_fill_color);
        else if (key == "profile_text_color")
            read(value, out.profile_text_color);
        else if (key == "profile_use_background_image")
            read(value, out.profile_use_background_image);
        else if (key == "default_profile")
            read(value, out.default_profile);
        else if (key == "default_profile_image")
            read(value, out.default_profile_image);
        else if (key == "following")
            read(value, out.following);
        else if (key == "follow_request_sent")
            read(value, out.follow_request_sent);
        else if (key == "notifications")
            read(value, out.notifications);
    }
}

void read(od::value v, twitter::hashtag& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "text")
            read(value, out.text);
        else if (key == "indices")
            read(value, out.indices);
    }
}

void read(od::value v, twitter::user_mention& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "screen_name")
            read(value, out.screen_name);
        else if (key == "name")
            read(value, out.name);
        else if (key == "id")
            read(value, out.id);
        else if (key == "id_str")
            read(value, out.id_str);
        else if (key == "indices")
            read(value, out.indices);
    }
}

void read(od::value v, twitter::media_size& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "w")
            read(value, out.w);
        else if (key == "h")
            read(value, out.h);
        else if (key == "resize")
            read(value, out.resize);
    }
}

void read(od::value v, twitter::media_sizes& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "medium")
            read(value, out.medium);
        else if (key == "small")
            read(value, out.small);
        else if (key == "thumb")
            read(value, out.thumb);
        else if (key == "large")
            read(value, out.large);
    }
}

void read(od::value v, twitter::media_entity& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "id")
            read(value, out.id);
        else if (key == "id_str")
            read(value, out.id_str);
        else if (key == "indices")
            read(value, out.indices);
        else if (key == "media_url")
            read(value, out.media_url);
        else if (key == "media_url_https")
            read(value, out.media_url_https);
        else if (key == "url")
            read(value, out.url);
        else if (key == "display_url")
            read(value, out.display_url);
        else if (key == "expanded_url")
            read(value, out.expanded_url);
        else if (key == "type")
            read(value, out.type);
        else if (key == "sizes")
            read(value, out.sizes);
        else if (key == "source_status_id")
            read(value, out.source_status_id);
        else if (key == "source_status_id_str")
            read(value, out.source_status_id_str);
    }
}

void read(od::value v, twitter::status_entities& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "hashtags")
            read(value, out.hashtags);
        else if (key == "symbols")
            read(value, out.symbols);
        else if (key == "urls")
            read(value, out.urls);
        else if (key == "user_mentions")
            read(value, out.user_mentions);
        else if (key == "media")
            read(value, out.media);
    }
}

void read(od::value v, twitter::status& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "metadata")
            read(value, out.metadata);
        else if (key == "created_at")
            read(value, out.created_at);
        else if (key == "id")
            read(value, out.id);
        else if (key == "id_str")
            read(value, out.id_str);
        else if (key == "text")
            read(value, out.text);
        else if (key == "source")
            read(value, out.source);
        else if (key == "truncated")
            read(value, out.truncated);
        else if (key == "in_reply_to_status_id")
            read(value, out.in_reply_to_status_id);
        else if (key == "in_reply_to_status_id_str")
            read(value, out.in_reply_to_status_id_str);
        else if (key == "in_reply_to_user_id")
            read(value, out.in_reply_to_user_id);
        else if (key == "in_reply_to_user_id_str")
            read(value, out.in_reply_to_user_id_str);
        else if (key == "in_reply_to_screen_name")
            read(value, out.in_reply_to_screen_name);
        else if (key == "user")
            read(value, out.user);
        else if (key == "geo")
            read(value, out.geo);
        else if (key == "coordinates")
            read(value, out.coordinates);
        else if (key == "place")
            read(value, out.place);
        else if (key == "contributors")
            read(value, out.contributors);
        else if (key == "retweeted_status")
            read(value, out.retweeted_status);
        else if (key == "retweet_count")
            read(value, out.retweet_count);
        else if (key == "favorite_count")
            read(value, out.favorite_count);
        else if (key == "entities")
            read(value, out.entities);
        else if (key == "favorited")
            read(value, out.favorited);
        else if (key == "retweeted")
            read(value, out.retweeted);
        else if (key == "possibly_sensitive")
            read(value, out.possibly_sensitive);
        else if (key == "lang")
            read(value, out.lang);
    }
}

void read(od::value v, twitter::search_metadata& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "completed_in")
            read(value, out.completed_in);
        else if (key == "max_id")
            read(value, out.max_id);
        else if (key == "max_id_str")
            read(value, out.max_id_str);
        else if (key == "next_results")
            read(value, out.next_results);
        else if (key == "query")
            read(value, out.query);
        else if (key == "refresh_url")
            read(value, out.refresh_url);
        else if (key == "count")
            read(value, out.count);
        else if (key == "since_id")
            read(value, out.since_id);
        else if (key == "since_id_str")
            read(value, out.since_id_str);
    }
}

// citm_catalog.json

void read(od::value v, citm::event& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "description")
            read(value, out.description);
        else if (key == "id")
            read(value, out.id);
        else if (key == "logo")
            read(value, out.logo);
        else if (key == "name")
            read(value, out.name);
        else if (key == "subTopicIds")
            read(value, out.subTopicIds);
        else if (key == "subjectCode")
            read(value, out.subjectCode);
        else if (key == "subtitle")
            read(value, out.subtitle);
        else if (key == "topicIds")
            read(value, out.topicIds);
    }
}

void read(od::value v, citm::price& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "amount")
            read(value, out.amount);
        else if (key == "audienceSubCategoryId")
            read(value, out.audienceSubCategoryId);
        else if (key == "seatCategoryId")
            read(value, out.seatCategoryId);
    }
}

void read(od::value v, citm::area& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "areaId")
            read(value, out.areaId);
        else if (key == "blockIds")
            read(value, out.blockIds);
    }
}

void read(od::value v, citm::seat_category& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "areas")
            read(value, out.areas);
        else if (key == "seatCategoryId")
            read(value, out.seatCategoryId);
    }
}

void read(od::value v, citm::performance& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "eventId")
            read(value, out.eventId);
        else if (key == "id")
            read(value, out.id);
        else if (key == "logo")
            read(value, out.logo);
        else if (key == "name")
            read(value, out.name);
        else if (key == "prices")
            read(value, out.prices);
        else if (key == "seatCategories")
            read(value, out.seatCategories);
        else if (key == "seatMapImage")
            read(value, out.seatMapImage);
        else if (key == "start")
            read(value, out.start);
        else if (key == "venueCode")
            read(value, out.venueCode);
    }
}

// canada.json

void read(od::value v, canada::properties& out) {
    for (od::field field : v.get_object()) {
        if (field.key() == "name") read(field.value(), out.name);
    }
}

void read(od::value v, canada::geometry& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "type")
            read(value, out.type);
        else if (key == "coordinates")
            read(value, out.coordinates);
    }
}

void read(od::value v, canada::feature& out) {
    for (od::field field : v.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "type")
            read(value, out.type);
        else if (key == "properties")
            read(value, out.properties);
        else if (key == "geometry")
            read(value, out.geometry);
    }
}

} // namespace

void read_document(od::document& document, twitter::document& out) {
    for (od::field field : document.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "statuses")
            read(value, out.statuses);
        else if (key == "search_metadata")
            read(value, out.search_metadata);
    }
}

void read_document(od::document& document, citm::document& out) {
    for (od::field field : document.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "areaNames")
            read(value, out.areaNames);
        else if (key == "audienceSubCategoryNames")
            read(value, out.audienceSubCategoryNames);
        else if (key == "blockNames")
            read(value, out.blockNames);
        else if (key == "events")
            read(value, out.events);
        else if (key == "performances")
            read(value, out.performances);
        else if (key == "seatCategoryNames")
            read(value, out.seatCategoryNames);
        else if (key == "subTopicNames")
            read(value, out.subTopicNames);
        else if (key == "subjectNames")
            read(value, out.subjectNames);
        else if (key == "topicNames")
            read(value, out.topicNames);
        else if (key == "topicSubTopics")
            read(value, out.topicSubTopics);
        else if (key == "venueNames")
            read(value, out.venueNames);
    }
}

void read_document(od::document& document, canada::document& out) {
    for (od::field field : document.get_object()) {
        const od::raw_json_string key = field.key();
        od::value& value = field.value();
        if (key == "type")
            read(value, out.type);
        else if (key == "features")
            read(value, out.features);
    }
}

} // namespace forma_bench
