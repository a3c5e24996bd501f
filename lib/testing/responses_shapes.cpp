#include "responses_shapes.hpp"

#include "answer_decision.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

namespace forma::testing::detail {
namespace {

namespace json = boost::json;

json::object output_text(std::string_view text) {
    return {{"type", "output_text"}, {"text", text}, {"annotations", json::array{}}, {"logprobs", json::array{}}};
}

json::object summary_text(std::string_view text) { return {{"type", "summary_text"}, {"text", text}}; }

json::object usage_object(const response_usage& usage) {
    return {{"input_tokens", usage.input_tokens},
            {"input_tokens_details", json::object{{"cached_tokens", 0}, {"cache_write_tokens", 0}}},
            {"output_tokens", usage.output_tokens},
            {"output_tokens_details", json::object{{"reasoning_tokens", usage.reasoning_tokens}}},
            {"total_tokens", usage.input_tokens + usage.output_tokens}};
}

// Numbers the events as they come and writes each as SSE.
struct event_writer {
    std::vector<std::string>& out;

    void operator()(json::object event) {
        event["sequence_number"] = out.size();
        out.push_back(sse_event(event));
    }
};

// An item's events between output_item.added and output_item.done (both excluded).
void item_part_events(event_writer& emit, const json::object& item, std::size_t index, std::size_t delta_size) {
    const std::string_view type = string_at(item, "type");
    const json::string& id = item.at("id").as_string();
    if (type == "function_call") {
        const std::string_view arguments = string_at(item, "arguments");
        for (std::string_view piece : pieces(arguments, delta_size))
            emit({{"type", "response.function_call_arguments.delta"},
                  {"item_id", id},
                  {"output_index", index},
                  {"delta", piece}});
        emit({{"type", "response.function_call_arguments.done"},
              {"item_id", id},
              {"name", item.at("name")},
              {"output_index", index},
              {"arguments", arguments}});
        return;
    }
    // A message's text parts and a reasoning item's summary parts stream alike, under other names.
    const bool reasoning = type == "reasoning";
    const json::value* parts = item.if_contains(reasoning ? "summary" : "content");
    if (!parts || !parts->is_array()) return;
    const std::string_view part_event = reasoning ? "response.reasoning_summary_part" : "response.content_part";
    const std::string_view text_event = reasoning ? "response.reasoning_summary_text" : "response.output_text";
    const std::string_view index_key = reasoning ? "summary_index" : "content_index";
    std::size_t part_index = 0;
    for (const json::value& p : parts->get_array()) {
        const json::object& part = p.as_object();
        const std::string_view text = string_at(part, "text");
        auto event = [&](std::string_view prefix, std::string_view suffix) {
            return json::object{{"type", std::string(prefix).append(suffix)},
                                {"item_id", id},
                                {"output_index", index},
                                {index_key, part_index}};
        };
        json::object added = event(part_event, ".added");
        added["part"] = reasoning ? summary_text("") : output_text("");
        emit(std::move(added));
        for (std::string_view piece : pieces(text, delta_size)) {
            json::object delta = event(text_event, ".delta");
            delta["delta"] = piece;
            if (!reasoning) delta["logprobs"] = json::array{};
            emit(std::move(delta));
        }
        json::object done = event(text_event, ".done");
        done["text"] = text;
        if (!reasoning) done["logprobs"] = json::array{};
        emit(std::move(done));
        json::object part_done = event(part_event, ".done");
        part_done["part"] = part;
        emit(std::move(part_done));
        ++part_index;
    }
}

// The item as output_item.added shows it: nothing generated yet.
json::object started(json::object item) {
    const std::string_view type = string_at(item, "type");
    if (type == "message") item["content"] = json::array{};
    if (type == "reasoning") item["summary"] = json::array{};
    if (type == "function_call") item["arguments"] = "";
    if (item.contains("status")) item["status"] = "in_progress";
    return item;
}

} // namespace

json::object message_item(std::string id, std::string_view text, std::string_view status) {
    return {{"id", std::move(id)},
            {"type", "message"},
            {"role", "assistant"},
            {"status", status},
            {"content", json::array{output_text(text)}}};
}

json::object function_call_item(std::string id, const scripted_tool_call& call) {
    return {{"id", std::move(id)},
            {"type", "function_call"},
            {"call_id", call.id},
            {"name", call.name},
            {"arguments", call.arguments},
            {"status", "completed"}};
}

json::object reasoning_item(std::string id, std::string_view summary, std::string_view encrypted_content) {
    json::object item{{"id", std::move(id)}, {"type", "reasoning"}, {"summary", json::array{summary_text(summary)}}};
    if (!encrypted_content.empty()) item["encrypted_content"] = encrypted_content;
    return item;
}

json::object response_base(std::string id, std::string_view model, std::int64_t created_at) {
    return {{"id", std::move(id)},
            {"object", "response"},
            {"created_at", created_at},
            {"status", "in_progress"},
            {"background", false},
            {"error", nullptr},
            {"incomplete_details", nullptr},
            {"instructions", nullptr},
            {"max_output_tokens", nullptr},
            {"model", model},
            {"output", json::array{}},
            {"parallel_tool_calls", true},
            {"previous_response_id", nullptr},
            {"reasoning", nullptr},
            {"service_tier", "default"},
            {"store", true},
            {"temperature", 1},
            {"text", json::object{{"format", json::object{{"type", "text"}}}}},
            {"tool_choice", "auto"},
            {"tools", json::array{}},
            {"top_p", 1},
            {"truncation", "disabled"},
            {"metadata", json::object{}}};
}

json::object response_at(const json::object& base, std::string_view status, json::array output,
                         const response_usage* usage, std::string_view error_message) {
    json::object response = base;
    response["status"] = status;
    response["output"] = std::move(output);
    if (status == "incomplete") response["incomplete_details"] = json::object{{"reason", "max_output_tokens"}};
    if (status == "completed") response["completed_at"] = base.at("created_at");
    if (status == "failed")
        response["error"] = json::object{{"code", "server_error"}, {"message", error_message}};
    if (usage) response["usage"] = usage_object(*usage);
    return response;
}

response_events stream_response(const json::object& final_response, std::string_view first_status,
                                 std::size_t delta_size) {
    response_events out;
    event_writer emit{out.events};
    json::object opening = final_response;
    opening["status"] = first_status;
    opening["output"] = json::array{};
    opening.erase("usage");
    opening.erase("completed_at");
    opening["incomplete_details"] = nullptr;
    emit({{"type", "response.created"}, {"response", opening}});
    opening["status"] = "in_progress";
    emit({{"type", "response.in_progress"}, {"response", std::move(opening)}});

    const json::array& items = final_response.at("output").as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const json::object& item = items[i].as_object();
        emit({{"type", "response.output_item.added"}, {"output_index", i}, {"item", started(item)}});
        item_part_events(emit, item, i, delta_size);
        out.item_done.push_back(out.events.size());
        emit({{"type", "response.output_item.done"}, {"output_index", i}, {"item", item}});
    }
    const bool incomplete = string_at(final_response, "status") == "incomplete";
    emit({{"type", incomplete ? "response.incomplete" : "response.completed"}, {"response", final_response}});
    return out;
}

std::string sse_event(const json::object& event) {
    std::string out;
    if (const std::string_view type = string_at(event, "type"); !type.empty())
        out.append("event: ").append(type).push_back('\n');
    out.append("data: ").append(json::serialize(event)).append("\n\n");
    return out;
}

std::string_view string_at(const json::object& o, std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

} // namespace forma::testing::detail
