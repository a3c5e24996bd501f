// Must not compile: a schema name outside ^[A-Za-z0-9_-]{1,64}$.
#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

struct person {
    int age = 0;
};
BOOST_DESCRIBE_STRUCT(person, (), (age))
FORMA_DESCRIBE_TYPE(person, .name = "a person");
