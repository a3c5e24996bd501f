#include "connection.hpp"

#include <forma/error.hpp>
#include <forma/openai/response_parser.hpp>

namespace forma::openai::detail {

namespace {

provider_transport_options transport_options(const client_options& options) {
    std::vector<std::pair<std::string, std::string>> headers; // credential-named: their values never reach an error
    if (!options.api_key.empty()) {
        if (options.azure)
            headers.emplace_back("api-key", options.api_key);
        else
            headers.emplace_back("Authorization", "Bearer " + options.api_key);
    }
    if (!options.organization.empty()) headers.emplace_back("OpenAI-Organization", options.organization);
    if (!options.project.empty()) headers.emplace_back("OpenAI-Project", options.project);
    return transport_options_from(options, std::move(headers), x_ratelimit_headers,
                                  [](int status, std::string_view body) { return parse_error(status, body); });
}

client_options checked(client_options options) {
    if (options.azure) {
        if (options.azure->deployment.empty()) throw error("azure_options needs a deployment name");
        if (options.model.empty()) options.model = options.azure->deployment;
    }
    return options;
}

} // namespace

connection::connection(provider_transport::executor_type executor, client_options options)
    : options_(checked(std::move(options))),
      transport_(std::make_shared<provider_transport>(std::move(executor), transport_options(options_))) {}

std::string connection::target(std::string_view path, std::string_view query) const {
    if (!options_.azure) return transport_->target(path, query);
    std::string azure_query = "api-version=" + options_.azure->api_version;
    if (!query.empty()) azure_query.append("&").append(query);
    return transport_->target(path, azure_query);
}

provider_metadata connection::provider() const {
    const structured_output_mode other_mode = options_.structured_output_mode == structured_output_mode::native
                                                  ? structured_output_mode::tool
                                                  : structured_output_mode::native;
    return {.name = options_.azure ? "azure.ai.openai" : "openai",
            .server_address = transport_->server().host,
            .server_port = transport_->server().port,
            .default_model = options_.model,
            .structured_output_modes = {options_.structured_output_mode, other_mode},
            .schema_dialect = schema_dialect::openai_strict};
}

} // namespace forma::openai::detail
