#include "readers.hpp"

#include <forma/json.hpp>

namespace forma_bench {

template <class T>
T read_forma(const std::string& json) {
    return forma::from_json<T>(json);
}

template person read_forma<person>(const std::string&);
template catalog read_forma<catalog>(const std::string&);

} // namespace forma_bench
