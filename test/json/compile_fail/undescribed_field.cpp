// Must not compile: FORMA_DESCRIBE_FIELDS names a member the describe macro does not list.
#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

#include <string>

struct person {
    std::string name;
    int secret = 0;
};
BOOST_DESCRIBE_STRUCT(person, (), (name))
FORMA_DESCRIBE_FIELDS(person, (secret, .description = "not described"));
