#include "writers.hpp"

#include <forma/json.hpp>

namespace forma_bench {

template <class T>
std::string write_forma(const T& value) {
    return forma::to_json(value);
}

template std::string write_forma<catalog>(const catalog&);
template std::string write_forma<twitter::document>(const twitter::document&);
template std::string write_forma<citm::document>(const citm::document&);
template std::string write_forma<canada::document>(const canada::document&);

} // namespace forma_bench
