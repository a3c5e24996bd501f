// The corpus documents with nlohmann-json: from_json and to_json for every struct, found by
// argument-dependent lookup, as nlohmann's documentation shows them. nlohmann 3.11 knows no
// std::optional: absent or null leaves it empty, and an empty one is written as null.

#include "corpus_nlohmann.hpp"
#include "nlohmann_optional.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace forma_bench {
namespace {

/// A member that is null in every object of the document (std::monostate).
void get_null(const nlohmann::json& j, const char* key) {
    if (!j.at(key).is_null()) throw std::runtime_error(std::string(key) + " is not null");
}

template <class T>
nlohmann::json nullable(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

template <class T>
nlohmann::json nullable(const std::unique_ptr<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

} // namespace

namespace twitter {

void from_json(const nlohmann::json& j, metadata& out) {
    j.at("result_type").get_to(out.result_type);
    j.at("iso_language_code").get_to(out.iso_language_code);
}

void to_json(nlohmann::json& j, const metadata& in) {
    j = nlohmann::json{{"result_type", in.result_type},
                       {"iso_language_code", in.iso_language_code}};
}

void from_json(const nlohmann::json& j, url_entity& out) {
    j.at("url").get_to(out.url);
    j.at("expanded_url").get_to(out.expanded_url);
    j.at("display_url").get_to(out.display_url);
    j.at("indices").get_to(out.indices);
}

void to_json(nlohmann::json& j, const url_entity& in) {
    j = nlohmann::json{{"url", in.url},
                       {"expanded_url", in.expanded_url},
                       {"display_url", in.display_url},
                       {"indices", in.indices}};
}

void from_json(const nlohmann::json& j, url_list& out) {
    j.at("urls").get_to(out.urls);
}

void to_json(nlohmann::json& j, const url_list& in) {
    j = nlohmann::json{{"urls", in.urls}};
}

void from_json(const nlohmann::json& j, user_entities& out) {
    get_optional(j, "url", out.url);
    j.at("description").get_to(out.description);
}

void to_json(nlohmann::json& j, const user_entities& in) {
    j = nlohmann::json{{"url", nullable(in.url)}, {"description", in.description}};
}

void from_json(const nlohmann::json& j, user& out) {
    j.at("id").get_to(out.id);
    j.at("id_str").get_to(out.id_str);
    j.at("name").get_to(out.name);
    j.at("screen_name").get_to(out.screen_name);
    j.at("location").get_to(out.location);
    j.at("description").get_to(out.description);
    get_optional(j, "url", out.url);
    j.at("entities").get_to(out.entities);
    j.at("protected").get_to(out.is_protected);
    j.at("followers_count").get_to(out.followers_count);
    j.at("friends_count").get_to(out.friends_count);
    j.at("listed_count").get_to(out.listed_count);
    j.at("created_at").get_to(out.created_at);
    j.at("favourites_count").get_to(out.favourites_count);
    get_optional(j, "utc_offset", out.utc_offset);
    get_optional(j, "time_zone", out.time_zone);
    j.at("geo_enabled").get_to(out.geo_enabled);
    j.at("verified").get_to(out.verified);
    j.at("statuses_count").get_to(out.statuses_count);
    j.at("lang").get_to(out.lang);
    j.at("contributors_enabled").get_to(out.contributors_enabled);
    j.at("is_translator").get_to(out.is_translator);
    j.at("is_translation_enabled").get_to(out.is_translation_enabled);
    j.at("profile_background_color").get_to(out.profile_background_color);
    j.at("profile_background_image_url").get_to(out.profile_background_image_url);
    j.at("profile_background_image_url_https").get_to(out.profile_background_image_url_https);
    j.at("profile_background_tile").get_to(out.profile_background_tile);
    j.at("profile_image_url").get_to(out.profile_image_url);
    j.at("profile_image_url_https").get_to(out.profile_image_url_https);
    get_optional(j, "profile_banner_url", out.profile_banner_url);
    j.at("profile_link_color").get_to(out.profile_link_color);
    j.at("profile_sidebar_border_color").get_to(out.profile_sidebar_border_color);
    j.at("profile_sidebar_fill_color").get_to(out.profile_sidebar_fill_color);
    j.at("profile_text_color").get_to(out.profile_text_color);
    j.at("profile_use_background_image").get_to(out.profile_use_background_image);
    j.at("default_profile").get_to(out.default_profile);
    j.at("default_profile_image").get_to(out.default_profile_image);
    j.at("following").get_to(out.following);
    j.at("follow_request_sent").get_to(out.follow_request_sent);
    j.at("notifications").get_to(out.notifications);
}

void to_json(nlohmann::json& j, const user& in) {
    j = nlohmann::json{
        {"id", in.id},
        {"id_str", in.id_str},
        {"name", in.name},
        {"screen_name", in.screen_name},
        {"location", in.location},
        {"description", in.description},
        {"url", nullable(in.url)},
        {"entities", in.entities},
        {"protected", in.is_protected},
        {"followers_count", in.followers_count},
        {"friends_count", in.friends_count},
        {"listed_count", in.listed_count},
        {"created_at", in.created_at},
        {"favourites_count", in.favourites_count},
        {"utc_offset", nullable(in.utc_offset)},
        {"time_zone", nullable(in.time_zone)},
        {"geo_enabled", in.geo_enabled},
        {"verified", in.verified},
        {"statuses_count", in.statuses_count},
        {"lang", in.lang},
        {"contributors_enabled", in.contributors_enabled},
        {"is_translator", in.is_translator},
        {"is_translation_enabled", in.is_translation_enabled},
        {"profile_background_color", in.profile_background_color},
        {"profile_background_image_url", in.profile_background_image_url},
        {"profile_background_image_url_https", in.profile_background_image_url_https},
        {"profile_background_tile", in.profile_background_tile},
        {"profile_image_url", in.profile_image_url},
        {"profile_image_url_https", in.profile_image_url_https},
        {"profile_banner_url", nullable(in.profile_banner_url)},
        {"profile_link_color", in.profile_link_color},
        {"profile_sidebar_border_color", in.profile_sidebar_border_color},
        {"profile_sidebar_fill_color", in.profile_sidebar_fill_color},
        {"profile_text_color", in.profile_text_color},
        {"profile_use_background_image", in.profile_use_background_image},
        {"default_profile", in.default_profile},
        {"default_profile_image", in.default_profile_image},
        {"following", in.following},
        {"follow_request_sent", in.follow_request_sent},
        {"notifications", in.notifications}};
}

void from_json(const nlohmann::json& j, hashtag& out) {
    j.at("text").get_to(out.text);
    j.at("indices").get_to(out.indices);
}

void to_json(nlohmann::json& j, const hashtag& in) {
    j = nlohmann::json{{"text", in.text}, {"indices", in.indices}};
}

void from_json(const nlohmann::json& j, user_mention& out) {
    j.at("screen_name").get_to(out.screen_name);
    j.at("name").get_to(out.name);
    j.at("id").get_to(out.id);
    j.at("id_str").get_to(out.id_str);
    j.at("indices").get_to(out.indices);
}

void to_json(nlohmann::json& j, const user_mention& in) {
    j = nlohmann::json{{"screen_name", in.screen_name},
                       {"name", in.name},
                       {"id", in.id},
                       {"id_str", in.id_str},
                       {"indices", in.indices}};
}

void from_json(const nlohmann::json& j, media_size& out) {
    j.at("w").get_to(out.w);
    j.at("h").get_to(out.h);
    j.at("resize").get_to(out.resize);
}

void to_json(nlohmann::json& j, const media_size& in) {
    j = nlohmann::json{{"w", in.w}, {"h", in.h}, {"resize", in.resize}};
}

void from_json(const nlohmann::json& j, media_sizes& out) {
    j.at("medium").get_to(out.medium);
    j.at("small").get_to(out.small);
    j.at("thumb").get_to(out.thumb);
    j.at("large").get_to(out.large);
}

void to_json(nlohmann::json& j, const media_sizes& in) {
    j = nlohmann::json{
        {"medium", in.medium}, {"small", in.small}, {"thumb", in.thumb}, {"large", in.large}};
}

void from_json(const nlohmann::json& j, media_entity& out) {
    j.at("id").get_to(out.id);
    j.at("id_str").get_to(out.id_str);
    j.at("indices").get_to(out.indices);
    j.at("media_url").get_to(out.media_url);
    j.at("media_url_https").get_to(out.media_url_https);
    j.at("url").get_to(out.url);
    j.at("display_url").get_to(out.display_url);
    j.at("expanded_url").get_to(out.expanded_url);
    j.at("type").get_to(out.type);
    j.at("sizes").get_to(out.sizes);
    get_optional(j, "source_status_id", out.source_status_id);
    get_optional(j, "source_status_id_str", out.source_status_id_str);
}

void to_json(nlohmann::json& j, const media_entity& in) {
    j = nlohmann::json{{"id", in.id},
                       {"id_str", in.id_str},
                       {"indices", in.indices},
                       {"media_url", in.media_url},
                       {"media_url_https", in.media_url_https},
                       {"url", in.url},
                       {"display_url", in.display_url},
                       {"expanded_url", in.expanded_url},
                       {"type", in.type},
                       {"sizes", in.sizes},
                       {"source_status_id", nullable(in.source_status_id)},
                       {"source_status_id_str", nullable(in.source_status_id_str)}};
}

void from_json(const nlohmann::json& j, status_entities& out) {
    j.at("hashtags").get_to(out.hashtags);
    j.at("symbols").get_to(out.symbols);
    j.at("urls").get_to(out.urls);
    j.at("user_mentions").get_to(out.user_mentions);
    get_optional(j, "media", out.media);
}

void to_json(nlohmann::json& j, const status_entities& in) {
    j = nlohmann::json{{"hashtags", in.hashtags},
                       {"symbols", in.symbols},
                       {"urls", in.urls},
                       {"user_mentions", in.user_mentions},
                       {"media", nullable(in.media)}};
}

void from_json(const nlohmann::json& j, status& out) {
    j.at("metadata").get_to(out.metadata);
    j.at("created_at").get_to(out.created_at);
    j.at("id").get_to(out.id);
    j.at("id_str").get_to(out.id_str);
    j.at("text").get_to(out.text);
    j.at("source").get_to(out.source);
    j.at("truncated").get_to(out.truncated);
    get_optional(j, "in_reply_to_status_id", out.in_reply_to_status_id);
    get_optional(j, "in_reply_to_status_id_str", out.in_reply_to_status_id_str);
    get_optional(j, "in_reply_to_user_id", out.in_reply_to_user_id);
    get_optional(j, "in_reply_to_user_id_str", out.in_reply_to_user_id_str);
    get_optional(j, "in_reply_to_screen_name", out.in_reply_to_screen_name);
    j.at("user").get_to(out.user);
    get_null(j, "geo");
    get_null(j, "coordinates");
    get_null(j, "place");
    get_null(j, "contributors");
    get_optional(j, "retweeted_status", out.retweeted_status);
    j.at("retweet_count").get_to(out.retweet_count);
    j.at("favorite_count").get_to(out.favorite_count);
    j.at("entities").get_to(out.entities);
    j.at("favorited").get_to(out.favorited);
    j.at("retweeted").get_to(out.retweeted);
    get_optional(j, "possibly_sensitive", out.possibly_sensitive);
    j.at("lang").get_to(out.lang);
}

void to_json(nlohmann::json& j, const status& in) {
    j = nlohmann::json{{"metadata", in.metadata},
                       {"created_at", in.created_at},
                       {"id", in.id},
                       {"id_str", in.id_str},
                       {"text", in.text},
                       {"source", in.source},
                       {"truncated", in.truncated},
                       {"in_reply_to_status_id", nullable(in.in_reply_to_status_id)},
                       {"in_reply_to_status_id_str", nullable(in.in_reply_to_status_id_str)},
                       {"in_reply_to_user_id", nullable(in.in_reply_to_user_id)},
                       {"in_reply_to_user_id_str", nullable(in.in_reply_to_user_id_str)},
                       {"in_reply_to_screen_name", nullable(in.in_reply_to_screen_name)},
                       {"user", in.user},
                       {"geo", nullptr},
                       {"coordinates", nullptr},
                       {"place", nullptr},
                       {"contributors", nullptr},
                       {"retweeted_status", nullable(in.retweeted_status)},
                       {"retweet_count", in.retweet_count},
                       {"favorite_count", in.favorite_count},
                       {"entities", in.entities},
                       {"favorited", in.favorited},
                       {"retweeted", in.retweeted},
                       {"possibly_sensitive", nullable(in.possibly_sensitive)},
                       {"lang", in.lang}};
}

void from_json(const nlohmann::json& j, search_metadata& out) {
    j.at("completed_in").get_to(out.completed_in);
    j.at("max_id").get_to(out.max_id);
    j.at("max_id_str").get_to(out.max_id_str);
    j.at("next_results").get_to(out.next_results);
    j.at("query").get_to(out.query);
    j.at("refresh_url").get_to(out.refresh_url);
    j.at("count").get_to(out.count);
    j.at("since_id").get_to(out.since_id);
    j.at("since_id_str").get_to(out.since_id_str);
}

void to_json(nlohmann::json& j, const search_metadata& in) {
    j = nlohmann::json{{"completed_in", in.completed_in},
                       {"max_id", in.max_id},
                       {"max_id_str", in.max_id_str},
                       {"next_results", in.next_results},
                       {"query", in.query},
                       {"refresh_url", in.refresh_url},
                       {"count", in.count},
                       {"since_id", in.since_id},
                       {"since_id_str", in.since_id_str}};
}

void from_json(const nlohmann::json& j, document& out) {
    j.at("statuses").get_to(out.statuses);
    j.at("search_metadata").get_to(out.search_metadata);
}

void to_json(nlohmann::json& j, const document& in) {
    j = nlohmann::json{{"statuses", in.statuses}, {"search_metadata", in.search_metadata}};
}

} // namespace twitter

namespace citm {

void from_json(const nlohmann::json& j, event& out) {
    get_optional(j, "description", out.description);
    j.at("id").get_to(out.id);
    get_optional(j, "logo", out.logo);
    j.at("name").get_to(out.name);
    j.at("subTopicIds").get_to(out.subTopicIds);
    get_optional(j, "subjectCode", out.subjectCode);
    get_optional(j, "subtitle", out.subtitle);
    j.at("topicIds").get_to(out.topicIds);
}

void to_json(nlohmann::json& j, const event& in) {
    j = nlohmann::json{{"description", nullable(in.description)},
                       {"id", in.id},
                       {"logo", nullable(in.logo)},
                       {"name", in.name},
                       {"subTopicIds", in.subTopicIds},
                       {"subjectCode", nullable(in.subjectCode)},
                       {"subtitle", nullable(in.subtitle)},
                       {"topicIds", in.topicIds}};
}

void from_json(const nlohmann::json& j, price& out) {
    j.at("amount").get_to(out.amount);
    j.at("audienceSubCategoryId").get_to(out.audienceSubCategoryId);
    j.at("seatCategoryId").get_to(out.seatCategoryId);
}

void to_json(nlohmann::json& j, const price& in) {
    j = nlohmann::json{{"amount", in.amount},
                       {"audienceSubCategoryId", in.audienceSubCategoryId},
                       {"seatCategoryId", in.seatCategoryId}};
}

void from_json(const nlohmann::json& j, area& out) {
    j.at("areaId").get_to(out.areaId);
    j.at("blockIds").get_to(out.blockIds);
}

void to_json(nlohmann::json& j, const area& in) {
    j = nlohmann::json{{"areaId", in.areaId}, {"blockIds", in.blockIds}};
}

void from_json(const nlohmann::json& j, seat_category& out) {
    j.at("areas").get_to(out.areas);
    j.at("seatCategoryId").get_to(out.seatCategoryId);
}

void to_json(nlohmann::json& j, const seat_category& in) {
    j = nlohmann::json{{"areas", in.areas}, {"seatCategoryId", in.seatCategoryId}};
}

void from_json(const nlohmann::json& j, performance& out) {
    j.at("eventId").get_to(out.eventId);
    j.at("id").get_to(out.id);
    get_optional(j, "logo", out.logo);
    get_optional(j, "name", out.name);
    j.at("prices").get_to(out.prices);
    j.at("seatCategories").get_to(out.seatCategories);
    get_optional(j, "seatMapImage", out.seatMapImage);
    j.at("start").get_to(out.start);
    j.at("venueCode").get_to(out.venueCode);
}

void to_json(nlohmann::json& j, const performance& in) {
    j = nlohmann::json{{"eventId", in.eventId},
                       {"id", in.id},
                       {"logo", nullable(in.logo)},
                       {"name", nullable(in.name)},
                       {"prices", in.prices},
                       {"seatCategories", in.seatCategories},
                       {"seatMapImage", nullable(in.seatMapImage)},
                       {"start", in.start},
                       {"venueCode", in.venueCode}};
}

void from_json(const nlohmann::json& j, document& out) {
    j.at("areaNames").get_to(out.areaNames);
    j.at("audienceSubCategoryNames").get_to(out.audienceSubCategoryNames);
    j.at("blockNames").get_to(out.blockNames);
    j.at("events").get_to(out.events);
    j.at("performances").get_to(out.performances);
    j.at("seatCategoryNames").get_to(out.seatCategoryNames);
    j.at("subTopicNames").get_to(out.subTopicNames);
    j.at("subjectNames").get_to(out.subjectNames);
    j.at("topicNames").get_to(out.topicNames);
    j.at("topicSubTopics").get_to(out.topicSubTopics);
    j.at("venueNames").get_to(out.venueNames);
}

void to_json(nlohmann::json& j, const document& in) {
    j = nlohmann::json{{"areaNames", in.areaNames},
                       {"audienceSubCategoryNames", in.audienceSubCategoryNames},
                       {"blockNames", in.blockNames},
                       {"events", in.events},
                       {"performances", in.performances},
                       {"seatCategoryNames", in.seatCategoryNames},
                       {"subTopicNames", in.subTopicNames},
                       {"subjectNames", in.subjectNames},
                       {"topicNames", in.topicNames},
                       {"topicSubTopics", in.topicSubTopics},
                       {"venueNames", in.venueNames}};
}

} // namespace citm

namespace canada {

void from_json(const nlohmann::json& j, properties& out) {
    j.at("name").get_to(out.name);
}

void to_json(nlohmann::json& j, const properties& in) {
    j = nlohmann::json{{"name", in.name}};
}

void from_json(const nlohmann::json& j, geometry& out) {
    j.at("type").get_to(out.type);
    j.at("coordinates").get_to(out.coordinates);
}

void to_json(nlohmann::json& j, const geometry& in) {
    j = nlohmann::json{{"type", in.type}, {"coordinates", in.coordinates}};
}

void from_json(const nlohmann::json& j, feature& out) {
    j.at("type").get_to(out.type);
    j.at("properties").get_to(out.properties);
    j.at("geometry").get_to(out.geometry);
}

void to_json(nlohmann::json& j, const feature& in) {
    j = nlohmann::json{{"type", in.type}, {"properties", in.properties}, {"geometry", in.geometry}};
}

void from_json(const nlohmann::json& j, document& out) {
    j.at("type").get_to(out.type);
    j.at("features").get_to(out.features);
}

void to_json(nlohmann::json& j, const document& in) {
    j = nlohmann::json{{"type", in.type}, {"features", in.features}};
}

} // namespace canada

} // namespace forma_bench
