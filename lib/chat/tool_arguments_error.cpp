#include <forma/chat/tool_arguments_error.hpp>

namespace forma {

tool_arguments_error::~tool_arguments_error() = default;

} // namespace forma
