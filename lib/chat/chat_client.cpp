#include <forma/chat/chat_client.hpp>

namespace forma {

chat_client::~chat_client() = default;

} // namespace forma
