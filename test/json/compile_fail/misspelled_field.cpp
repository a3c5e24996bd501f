// Must not compile: FORMA_DESCRIBE_FIELDS names a member that does not exist.
#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

#include <string>

struct person {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(person, (), (name))
FORMA_DESCRIBE_FIELDS(person, (nmae, .description = "typo"));
