#include <forma/chat/tool_error.hpp>
#include <forma/registered_secret.hpp>

namespace forma {

tool_error::tool_error(const std::string& message, std::string tool_name, std::string call_id)
    : error(message), tool_name_(redact_secrets(tool_name)), call_id_(redact_secrets(call_id)) {}
tool_error::~tool_error() = default;

} // namespace forma
