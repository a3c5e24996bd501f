// Must not compile: two members would share one JSON name.
#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

#include <string>

struct account {
    std::string name;
    std::string display_name;
};
BOOST_DESCRIBE_STRUCT(account, (), (name, display_name))
FORMA_DESCRIBE_FIELDS(account, (display_name, .json_name = "name"));
