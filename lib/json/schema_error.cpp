#include <forma/json/schema_error.hpp>

namespace forma {
schema_error::~schema_error() = default;
}
