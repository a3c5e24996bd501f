#pragma once
// Spans and metrics with the OpenTelemetry GenAI names, and their exporters. (The chat and
// execute_tool spans are on the chat floor, <forma/chat.hpp>; included here for one release.)
#include <forma/chat/operation_span.hpp>
#include <forma/chat/tool_span.hpp>
#include <forma/telemetry/attribute.hpp>
#include <forma/telemetry/exporter.hpp>
#include <forma/telemetry/gen_ai.hpp>
#include <forma/telemetry/in_memory_exporter.hpp>
#include <forma/telemetry/metric_data.hpp>
#include <forma/telemetry/metric_store.hpp>
#include <forma/telemetry/otlp_http_exporter.hpp>
#include <forma/telemetry/otlp_json.hpp>
#include <forma/telemetry/span_context.hpp>
#include <forma/telemetry/span_data.hpp>
#include <forma/telemetry/trace_parent.hpp>
