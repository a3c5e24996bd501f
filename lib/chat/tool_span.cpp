#include <forma/chat/tool_span.hpp>

#include <forma/telemetry/exporter.hpp>
#include <forma/telemetry/gen_ai.hpp>

#include <boost/json/serialize.hpp>

namespace forma::telemetry {

namespace attr = gen_ai::attr;

struct tool_span::state {
    std::shared_ptr<telemetry::exporter> sink;
    bool sensitive = false;
    span_data span;
    std::chrono::steady_clock::time_point started;

    void close() noexcept {
        try {
            const auto elapsed = std::chrono::steady_clock::now() - started;
            span.end_time = span.start_time + std::chrono::duration_cast<std::chrono::system_clock::duration>(elapsed);
            sink->export_span(std::move(span));
        } catch (...) {
            // Telemetry never changes the call's outcome.
        }
    }
};

tool_span::tool_span(trace_parent parent, const tool_call_info& info) noexcept {
    if (!parent.exporter) return;
    try {
        auto s = std::make_unique<state>();
        s->sink = std::move(parent.exporter);
        s->sensitive = parent.sensitive_data;
        s->span.name = std::string(gen_ai::operation::execute_tool).append(" ").append(info.tool_name);
        s->span.kind = span_kind::internal;
        s->span.context.trace_id = parent.context.valid() ? parent.context.trace_id : make_trace_id();
        s->span.context.span_id = make_span_id();
        if (parent.context.valid()) s->span.parent_span_id = parent.context.span_id;
        s->span.start_time = std::chrono::system_clock::now();
        s->started = std::chrono::steady_clock::now();
        attribute_list& a = s->span.attributes;
        a.reserve(7);
        a.push_back({attr::operation_name, std::string(gen_ai::operation::execute_tool)});
        a.push_back({attr::tool_name, std::string(info.tool_name)});
        if (!info.call_id.empty()) a.push_back({attr::tool_call_id, std::string(info.call_id)});
        a.push_back({attr::tool_type, std::string("function")});
        if (!info.tool_description.empty()) a.push_back({attr::tool_description, std::string(info.tool_description)});
        if (s->sensitive) a.push_back({attr::tool_call_arguments, std::string(info.arguments)});
        state_ = std::move(s);
    } catch (...) {
        state_.reset(); // no telemetry rather than a failed call
    }
}

tool_span::tool_span(tool_span&& other) noexcept = default;

tool_span::~tool_span() {
    if (state_) state_->close();
}

trace_parent tool_span::child() const {
    if (!state_) return {};
    return trace_parent{.exporter = state_->sink, .context = state_->span.context, .sensitive_data = state_->sensitive};
}

void tool_span::end(const boost::json::value& result) noexcept {
    if (!state_) return;
    auto s = std::move(state_);
    try {
        if (s->sensitive)
            s->span.attributes.push_back({attr::tool_call_result,
                                          result.is_string() ? std::string(result.get_string())
                                                             : boost::json::serialize(result)});
    } catch (...) {
    }
    s->close();
}

void tool_span::fail(std::string_view error_type, std::string_view message) noexcept {
    if (!state_) return;
    auto s = std::move(state_);
    try {
        s->span.attributes.push_back({attr::error_type, std::string(error_type)});
        s->span.status = status_code::error;
        s->span.status_message = std::string(message);
    } catch (...) {
    }
    s->close();
}

} // namespace forma::telemetry
