#include <forma/chat/operation_span.hpp>

#include "message_parts.hpp"

#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/transport_error.hpp>
#include <forma/telemetry/exporter.hpp>
#include <forma/telemetry/gen_ai.hpp>

#include <boost/asio/error.hpp>
#include <boost/json/serialize.hpp>
#include <boost/system/system_error.hpp>

#include <cxxabi.h>

#include <array>
#include <cstdlib>
#include <optional>
#include <typeinfo>

namespace forma::telemetry {

namespace attr = gen_ai::attr;
using steady = std::chrono::steady_clock;

namespace {

std::string_view output_type(const chat_options& request) noexcept {
    if (request.response_format && request.response_format->kind() != response_format_kind::text) return "json";
    return "text";
}

std::string demangled(const std::type_info& type) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type.name(), nullptr, nullptr, &status),
                                                std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(type.name());
}

std::string_view transport_kind_name(transport_error_kind kind) noexcept {
    switch (kind) {
    case transport_error_kind::connect: return "connect";
    case transport_error_kind::tls: return "tls";
    case transport_error_kind::timeout: return "timeout";
    case transport_error_kind::closed: return "closed";
    case transport_error_kind::protocol: return "protocol";
    case transport_error_kind::body_too_large: return "body_too_large";
    }
    return "transport";
}

double seconds(steady::duration d) noexcept { return std::chrono::duration<double>(d).count(); }

} // namespace

std::string error_type(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const http_error& e) {
        if (e.status() != 0) return std::to_string(e.status());
        return e.type().empty() ? "http_error" : e.type();
    } catch (const transport_error& e) {
        return std::string(transport_kind_name(e.kind()));
    } catch (const boost::system::system_error& e) {
        if (e.code() == boost::asio::error::operation_aborted) return "cancelled";
        return demangled(typeid(e));
    } catch (const std::exception& e) {
        return demangled(typeid(e));
    } catch (...) {
        return "_OTHER";
    }
}

const attribute input_tokens{attr::token_type, std::string("input")};
const attribute output_tokens{attr::token_type, std::string("output")};

struct operation_span::state {
    std::shared_ptr<telemetry::exporter> sink;
    bool sensitive = false;
    span_data span;
    steady::time_point started;
    std::optional<double> time_to_first_chunk;
    // What a stream said so far.
    std::string response_id;
    std::string response_model;
    std::optional<forma::finish_reason> finish;
    std::optional<usage_details> usage;
    std::optional<agent_response_builder> output; // only with sensitive data
    // The attributes the metrics carry: the span's first `leading_metric_attributes`
    // (operation, provider, request model, server address and port), then these.
    std::size_t leading_metric_attributes = 0;
    std::optional<std::size_t> response_model_at;
    std::optional<std::size_t> error_type_at;

    // A validation retry: an event with the number of errors the answer had.
    void note_retries(const std::vector<content>& contents) {
        for (const content& c : contents)
            if (const auto* errors = std::get_if<output_errors_content>(&c)) {
                span_event retry{.name = "forma.output.retry", .time = std::chrono::system_clock::now()};
                set(retry.attributes, "forma.output.retry", static_cast<std::int64_t>(span.events.size() + 1));
                set(retry.attributes, "forma.output.error_count", static_cast<std::int64_t>(errors->errors.size()));
                span.events.push_back(std::move(retry));
            }
    }

    // The metrics refer to the span's attributes: nothing is copied unless an attribute set is new.
    void record_metrics(double duration, const std::optional<usage_details>& counts) {
        std::array<const attribute*, 7> common{};
        std::size_t n = 0;
        for (; n < leading_metric_attributes; ++n) common[n] = &span.attributes[n];
        if (response_model_at) common[n++] = &span.attributes[*response_model_at];
        std::array<measurement, 4> values{};
        std::size_t m = 0;
        values[m++] = {.instrument = &gen_ai::operation_duration,
                       .value = duration,
                       .extra = error_type_at ? &span.attributes[*error_type_at] : nullptr};
        if (time_to_first_chunk)
            values[m++] = {.instrument = &gen_ai::time_to_first_chunk, .value = *time_to_first_chunk};
        if (counts && counts->input_token_count)
            values[m++] = {.instrument = &gen_ai::token_usage,
                           .value = static_cast<double>(*counts->input_token_count),
                           .extra = &input_tokens};
        if (counts && counts->output_token_count)
            values[m++] = {.instrument = &gen_ai::token_usage,
                           .value = static_cast<double>(*counts->output_token_count),
                           .extra = &output_tokens};
        sink->record({common.data(), n}, {values.data(), m});
    }

    // The span ends once and its start set none of the keys added at the end: no key repeats.
    std::size_t add(attribute_key key, attribute_value value) {
        span.attributes.push_back({std::move(key), std::move(value)});
        return span.attributes.size() - 1;
    }

    void set_response(std::string_view id, std::string_view model, const std::optional<forma::finish_reason>& reason,
                      const std::optional<usage_details>& counts) {
        if (!id.empty()) add(attr::response_id, std::string(id));
        if (!model.empty()) response_model_at = add(attr::response_model, std::string(model));
        if (reason) add(attr::response_finish_reasons, std::vector<std::string>{reason->value()});
        if (counts && counts->input_token_count) add(attr::usage_input_tokens, *counts->input_token_count);
        if (counts && counts->output_token_count) add(attr::usage_output_tokens, *counts->output_token_count);
        if (counts && counts->cached_input_token_count)
            add(attr::usage_cache_read_input_tokens, *counts->cached_input_token_count);
        if (counts)
            if (auto written = counts->additional_counts.find("cache_creation_input_tokens");
                written != counts->additional_counts.end())
                add(attr::usage_cache_creation_input_tokens, written->second);
    }

    // Ends the span, records the metrics and hands both over; never throws.
    void close(const std::optional<usage_details>& counts) noexcept {
        try {
            const auto elapsed = steady::now() - started;
            span.end_time = span.start_time + std::chrono::duration_cast<std::chrono::system_clock::duration>(elapsed);
            if (time_to_first_chunk) add(attr::response_time_to_first_chunk, *time_to_first_chunk);
            record_metrics(seconds(elapsed), counts);
        } catch (...) {
            // Telemetry never changes the operation's outcome.
        }
        try {
            sink->export_span(std::move(span));
        } catch (...) {
        }
    }
};

operation_span::operation_span(trace_parent parent, operation_info info) noexcept {
    if (!parent.exporter) return;
    try {
        auto s = std::make_unique<state>();
        s->sink = std::move(parent.exporter);
        s->sensitive = parent.sensitive_data;
        s->span.name = std::move(info.span_name);
        s->span.kind = span_kind::client;
        s->span.context.trace_id = parent.context.valid() ? parent.context.trace_id : make_trace_id();
        s->span.context.span_id = make_span_id();
        if (parent.context.valid()) s->span.parent_span_id = parent.context.span_id;
        s->span.start_time = std::chrono::system_clock::now();
        s->started = steady::now();

        static const chat_options no_options{};
        const chat_options& request = info.request ? *info.request : no_options;
        const std::string& model = request.model.empty() ? info.provider.default_model : request.model;

        attribute_list& a = s->span.attributes;
        a.reserve(16); // what a typical run sets; more grow the list
        auto put = [&a]<class V>(const attribute_key& key, V&& value) { a.push_back(attribute{key, std::forward<V>(value)}); };
        put(attr::operation_name, std::string(info.operation_name));
        if (!info.provider.name.empty()) put(attr::provider_name, info.provider.name);
        if (!model.empty()) put(attr::request_model, model);
        if (!info.provider.server_address.empty()) {
            put(attr::server_address, info.provider.server_address);
            if (info.provider.server_port) put(attr::server_port, std::int64_t{*info.provider.server_port});
        }
        s->leading_metric_attributes = a.size();
        if (!info.agent_id.empty()) put(attr::agent_id, std::string(info.agent_id));
        if (!info.agent_name.empty()) put(attr::agent_name, std::string(info.agent_name));
        if (!info.agent_description.empty()) put(attr::agent_description, std::string(info.agent_description));
        if (!info.conversation_id.empty()) put(attr::conversation_id, std::string(info.conversation_id));
        if (request.temperature) put(attr::request_temperature, *request.temperature);
        if (request.top_p) put(attr::request_top_p, *request.top_p);
        if (request.max_output_tokens) put(attr::request_max_tokens, *request.max_output_tokens);
        if (request.seed) put(attr::request_seed, *request.seed);
        if (!request.stop_sequences.empty()) put(attr::request_stop_sequences, request.stop_sequences);
        if (info.streaming) put(attr::request_stream, true);
        put(attr::output_type, std::string(output_type(request)));
        if (s->sensitive) {
            if (!request.instructions.empty())
                put(attr::system_instructions, boost::json::serialize(detail::instruction_parts(request.instructions)));
            if (info.input_messages)
                put(attr::input_messages, boost::json::serialize(detail::message_list(*info.input_messages)));
            s->output.emplace();
        }
        state_ = std::move(s);
    } catch (...) {
        state_.reset(); // no telemetry rather than a failed operation
    }
}

operation_span::operation_span(operation_span&& other) noexcept = default;

operation_span::~operation_span() {
    if (state_) end();
}

span_context operation_span::context() const noexcept { return state_ ? state_->span.context : span_context{}; }

trace_parent operation_span::child() const {
    if (!state_) return {};
    return trace_parent{.exporter = state_->sink, .context = state_->span.context, .sensitive_data = state_->sensitive};
}

void operation_span::add_update(const agent_response_update& update) noexcept {
    if (!state_) return;
    try {
        state& s = *state_;
        if (!s.time_to_first_chunk) s.time_to_first_chunk = seconds(steady::now() - s.started);
        if (!update.response_id.empty()) s.response_id = update.response_id;
        if (auto it = update.additional_properties.find("model");
            it != update.additional_properties.end() && it->value().is_string())
            s.response_model = it->value().as_string();
        if (update.finish_reason) s.finish = update.finish_reason;
        s.note_retries(update.contents);
        for (const auto& c : update.contents)
            if (const auto* u = std::get_if<usage_content>(&c)) {
                if (s.usage)
                    *s.usage += u->details;
                else
                    s.usage = u->details;
            }
        if (s.output) s.output->add(update);
    } catch (...) {
    }
}

void operation_span::end(const agent_response<>& response) noexcept {
    if (!state_) return;
    auto s = std::move(state_);
    try {
        std::string model;
        if (auto it = response.additional_properties.find("model");
            it != response.additional_properties.end() && it->value().is_string())
            model = it->value().as_string();
        s->set_response(response.response_id, model, response.finish_reason, response.usage);
        for (const chat_message& m : response.messages) s->note_retries(m.contents);
        if (s->sensitive)
            s->add(attr::output_messages,
                   boost::json::serialize(detail::output_message_list(response.messages, response.finish_reason)));
    } catch (...) {
    }
    s->close(response.usage);
}

void operation_span::end() noexcept {
    if (!state_) return;
    auto s = std::move(state_);
    try {
        s->set_response(s->response_id, s->response_model, s->finish, s->usage);
        if (s->output)
            s->add(attr::output_messages,
                   boost::json::serialize(detail::output_message_list(s->output->take().messages, s->finish)));
    } catch (...) {
    }
    s->close(s->usage);
}

void operation_span::fail(std::exception_ptr error) noexcept {
    if (!state_) return;
    auto s = std::move(state_);
    try {
        s->error_type_at = s->add(attr::error_type, error_type(error));
        s->span.status = status_code::error;
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            s->span.status_message = e.what();
        } catch (...) {
            s->span.status_message = "unknown error";
        }
    } catch (...) {
    }
    s->close(std::nullopt);
}

} // namespace forma::telemetry
