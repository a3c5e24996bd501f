#include <forma/reflect/field_info.hpp>

#include <forma/json/json_schema.hpp>

#include <boost/describe.hpp>
#include <gtest/gtest.h>

namespace field_info_test {

struct base_record {
    std::string id;
    int version = 0;
};
BOOST_DESCRIBE_STRUCT(base_record, (), (id, version))
FORMA_DESCRIBE_FIELDS(base_record, (id, .description = "Base id"), (version, .minimum = 1));

struct derived_record : base_record {
    std::string title;
};
BOOST_DESCRIBE_STRUCT(derived_record, (base_record), (title))
// The derived type may describe an inherited member; its own entry wins.
FORMA_DESCRIBE_FIELDS(derived_record, (title, .max_length = 9), (version, .description = "Derived"));

enum class level { low, high };
BOOST_DESCRIBE_ENUM(level, low, high)
FORMA_DESCRIBE_TYPE(level, .name = "level-v2", .description = "How much");

} // namespace field_info_test

using namespace field_info_test;
using forma::reflect::field_info_of;
using forma::reflect::members_of;

template <class T, std::size_t I>
using member_at = boost::mp11::mp_at_c<members_of<T>, I>;

TEST(field_info, is_found_for_own_and_inherited_members) {
    constexpr auto id = field_info_of<base_record, member_at<base_record, 0>>();
    static_assert(id.description == "Base id");
    constexpr auto version_in_base = field_info_of<base_record, member_at<base_record, 1>>();
    EXPECT_EQ(version_in_base.minimum, 1.0);
    constexpr auto id_in_derived = field_info_of<derived_record, member_at<derived_record, 0>>();
    EXPECT_EQ(id_in_derived.description, "Base id") << "inherited from the declaring class";
    constexpr auto version_in_derived = field_info_of<derived_record, member_at<derived_record, 1>>();
    EXPECT_EQ(version_in_derived.description, "Derived");
    EXPECT_FALSE(version_in_derived.minimum) << "the derived entry replaces the base one";
    constexpr auto title = field_info_of<derived_record, member_at<derived_record, 2>>();
    EXPECT_EQ(title.max_length, 9u);
}

TEST(field_info, reaches_the_schema_of_derived_types) {
    const auto& p = forma::json_schema<derived_record>().at("properties").as_object();
    EXPECT_EQ(p.at("id").at("description"), "Base id");
    EXPECT_EQ(p.at("version").at("description"), "Derived");
    EXPECT_EQ(p.at("title").at("maxLength"), 9);
}

TEST(type_info, names_and_describes_enums) {
    EXPECT_EQ(forma::schema_name<level>(), "level-v2");
    EXPECT_EQ(forma::json_schema<level>().at("description"), "How much");
}
