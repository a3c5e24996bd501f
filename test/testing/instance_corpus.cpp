// Prints (schema, instance) pairs as one JSON array, for check_instances.py to judge
// with Python's jsonschema: make_instance against an implementation no one here wrote.
#include <forma/testing/schema_instance.hpp>

#include "instance_types.hpp"

#include <boost/json/serialize.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstdint>
#include <iostream>

int main() {
    namespace json = boost::json;
    json::array pairs;
    // mp_identity: the roots themselves are not constructed.
    boost::mp11::mp_for_each<boost::mp11::mp_transform<boost::mp11::mp_identity, instance_types::roots>>(
        [&](auto sample) {
        using T = typename decltype(sample)::type;
        for (auto dialect : {forma::schema_dialect::json_schema_2020_12, forma::schema_dialect::openai_strict}) {
            const auto& schema = forma::json_schema<T>({.dialect = dialect});
            for (std::uint64_t seed = 0; seed < 25; ++seed)
                pairs.push_back(json::object{
                    {"name", std::string(forma::schema_name<T>()) + (dialect == forma::schema_dialect::openai_strict
                                                            ? "/openai_strict" : "/json_schema_2020_12")},
                    {"seed", seed},
                    {"schema", schema},
                    {"instance", forma::testing::make_instance(schema, instance_types::prompt, seed)}});
        }
    });
    std::cout << json::serialize(pairs) << '\n';
}
