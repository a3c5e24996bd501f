#include "readers.hpp"

#include <forma/json.hpp>

namespace forma_bench {

template <class T>
T read_forma(const std::string& json) {
    return forma::from_json<T>(json);
}

template person read_forma<person>(const std::string&);
template catalog read_forma<catalog>(const std::string&);
template twitter::document read_forma<twitter::document>(const std::string&);
template citm::document read_forma<citm::document>(const std::string&);
template canada::document read_forma<canada::document>(const std::string&);

} // namespace forma_bench
