#include <forma/chat/chat_client_builder.hpp>

#include <forma/error.hpp>

#include "decorator_chain.hpp"

namespace forma {

chat_client_builder::chat_client_builder(std::shared_ptr<chat_client> inner) : inner_(std::move(inner)) {
    if (!inner_) throw error("chat_client_builder needs a chat client");
}

chat_client_builder::chat_client_builder(chat_client& inner) : inner_(chat_detail::not_owned(inner)) {}

chat_client_builder& chat_client_builder::use(factory decorator) & {
    if (!decorator) throw error("chat_client_builder::use needs a factory");
    factories_.push_back(std::move(decorator));
    return *this;
}

chat_client_builder&& chat_client_builder::use(factory decorator) && { return std::move(use(std::move(decorator))); }

chat_client_builder& chat_client_builder::use_function_invocation(function_invocation_options options) & {
    return use([options](std::shared_ptr<chat_client> inner) -> std::shared_ptr<chat_client> {
        return std::make_shared<function_invoking_chat_client>(std::move(inner), options);
    });
}

chat_client_builder&& chat_client_builder::use_function_invocation(function_invocation_options options) && {
    return std::move(use_function_invocation(options));
}

chat_client_builder& chat_client_builder::use_cache(std::shared_ptr<response_cache> cache,
                                                    caching_chat_client_options options) & {
    if (!cache) throw error("chat_client_builder::use_cache needs a response cache");
    return use([cache = std::move(cache), options](std::shared_ptr<chat_client> inner) -> std::shared_ptr<chat_client> {
        return std::make_shared<caching_chat_client>(std::move(inner), cache, options);
    });
}

chat_client_builder&& chat_client_builder::use_cache(std::shared_ptr<response_cache> cache,
                                                     caching_chat_client_options options) && {
    return std::move(use_cache(std::move(cache), options));
}

chat_client_builder& chat_client_builder::use_concurrency_limit(concurrency_limiter_options options) & {
    return use([options = std::move(options)](std::shared_ptr<chat_client> inner) -> std::shared_ptr<chat_client> {
        return std::make_shared<concurrency_limiter>(std::move(inner), options);
    });
}

chat_client_builder&& chat_client_builder::use_concurrency_limit(concurrency_limiter_options options) && {
    return std::move(use_concurrency_limit(std::move(options)));
}

chat_client_builder& chat_client_builder::use_telemetry() & {
    return use([](std::shared_ptr<chat_client> inner) -> std::shared_ptr<chat_client> {
        return std::make_shared<telemetry_chat_client>(std::move(inner));
    });
}

chat_client_builder&& chat_client_builder::use_telemetry() && { return std::move(use_telemetry()); }

std::shared_ptr<chat_client> chat_client_builder::build() const {
    return chat_detail::build_chain(inner_, factories_, "chat_client_builder");
}

} // namespace forma
