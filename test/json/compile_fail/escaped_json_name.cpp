// Must not compile: a json_name the writer would have to escape.
#include <forma/reflect/field_info.hpp>

#include <boost/describe.hpp>

#include <string>

struct account {
    std::string name;
};
BOOST_DESCRIBE_STRUCT(account, (), (name))
FORMA_DESCRIBE_FIELDS(account, (name, .json_name = "say \"hi\""));
