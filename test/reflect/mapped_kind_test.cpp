#include <forma/reflect/mapped_kind.hpp>

#include <boost/describe.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace mapped_kind_test {

struct point {
    int x = 0;
};
BOOST_DESCRIBE_STRUCT(point, (), (x))

enum class color { red, green };
BOOST_DESCRIBE_ENUM(color, red, green)

enum class undescribed_color { red };
struct undescribed_point {
    int x = 0;
};

} // namespace mapped_kind_test

using forma::reflect::mapped_kind;
using forma::reflect::mapped_kind_v;
using namespace mapped_kind_test;

TEST(mapped_kind, each_mapped_type_has_one_kind) {
    EXPECT_EQ(mapped_kind_v<bool>, mapped_kind::boolean);
    EXPECT_EQ(mapped_kind_v<int>, mapped_kind::integer);
    EXPECT_EQ(mapped_kind_v<std::uint64_t>, mapped_kind::integer);
    EXPECT_EQ(mapped_kind_v<double>, mapped_kind::number);
    EXPECT_EQ(mapped_kind_v<float>, mapped_kind::number);
    EXPECT_EQ(mapped_kind_v<std::string>, mapped_kind::string);
    EXPECT_EQ(mapped_kind_v<std::monostate>, mapped_kind::null);
    EXPECT_EQ(mapped_kind_v<color>, mapped_kind::enumeration);
    EXPECT_EQ(mapped_kind_v<std::optional<int>>, mapped_kind::nullable);
    EXPECT_EQ(mapped_kind_v<std::unique_ptr<point>>, mapped_kind::nullable);
    EXPECT_EQ(mapped_kind_v<std::vector<int>>, mapped_kind::sequence);
    EXPECT_EQ(mapped_kind_v<std::list<std::string>>, mapped_kind::sequence);
    EXPECT_EQ(mapped_kind_v<std::deque<point>>, mapped_kind::sequence);
    EXPECT_EQ((mapped_kind_v<std::array<int, 3>>), mapped_kind::fixed_array);
    EXPECT_EQ((mapped_kind_v<std::map<std::string, int>>), mapped_kind::string_map);
    EXPECT_EQ((mapped_kind_v<std::unordered_map<std::string, point>>), mapped_kind::string_map);
    EXPECT_EQ((mapped_kind_v<std::variant<int, std::string>>), mapped_kind::variant);
    EXPECT_EQ(mapped_kind_v<point>, mapped_kind::described_struct);
    EXPECT_EQ(mapped_kind_v<boost::json::value>, mapped_kind::json_value);
    EXPECT_EQ(mapped_kind_v<boost::json::object>, mapped_kind::unmapped) << "any value, not any object";
}

TEST(mapped_kind, text_characters_undescribed_types_and_other_keys_are_unmapped) {
    EXPECT_EQ(mapped_kind_v<char>, mapped_kind::unmapped);
    EXPECT_EQ(mapped_kind_v<char32_t>, mapped_kind::unmapped);
    EXPECT_EQ(mapped_kind_v<undescribed_color>, mapped_kind::unmapped);
    EXPECT_EQ(mapped_kind_v<undescribed_point>, mapped_kind::unmapped);
    EXPECT_EQ((mapped_kind_v<std::map<int, int>>), mapped_kind::unmapped);
    EXPECT_FALSE(forma::reflect::is_json_mappable_v<undescribed_point>);
    EXPECT_TRUE(forma::reflect::is_json_mappable_v<std::vector<point>>);
}

TEST(mapped_kind, json_type_names_follow_the_kind) {
    using forma::reflect::json_type_name;
    EXPECT_EQ(json_type_name(mapped_kind::enumeration), "string");
    EXPECT_EQ(json_type_name(mapped_kind::fixed_array), "array");
    EXPECT_EQ(json_type_name(mapped_kind::string_map), "object");
    EXPECT_EQ(json_type_name(mapped_kind::described_struct), "object");
    EXPECT_EQ(json_type_name(mapped_kind::integer), "integer");
    EXPECT_EQ(json_type_name(mapped_kind::null), "null");
    EXPECT_TRUE(json_type_name(mapped_kind::nullable).empty()) << "a nullable's type is its element's, or null";
    EXPECT_TRUE(json_type_name(mapped_kind::variant).empty());
    EXPECT_TRUE(json_type_name(mapped_kind::json_value).empty()) << "any value has every type";
}
