#pragma once
// What both OpenAI clients share: their options, and the provider kit's transport made from
// them (the key as a Bearer token or Azure's api-key, OpenAI's error bodies and x-ratelimit-*
// headers).

#include <forma/chat/provider_metadata.hpp>
#include <forma/chat/provider_transport.hpp>
#include <forma/openai/client_options.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace forma::openai::detail {

class connection {
public:
    /// @throws forma::error for a base_url that does not parse, a ca_file that cannot be read,
    ///         or Azure options without a deployment.
    connection(provider_transport::executor_type executor, client_options options);

    const client_options& options() const noexcept { return options_; }
    const std::shared_ptr<provider_transport>& transport() const noexcept { return transport_; }

    /// The request target of an API path ("/chat/completions"), with `query` (without '?');
    /// Azure's api-version is added in Azure mode.
    std::string target(std::string_view path, std::string_view query = {}) const;

    /// "openai" ("azure.ai.openai" in Azure mode), the server's host and port, the client's model.
    provider_metadata provider() const;

private:
    client_options options_;
    std::shared_ptr<provider_transport> transport_;
};

} // namespace forma::openai::detail
