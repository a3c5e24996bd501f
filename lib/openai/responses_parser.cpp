#include <forma/openai/responses_parser.hpp>
#include <forma/openai/response_parser.hpp>

#include "responses_wire.hpp"
#include "../json/parsed_numbers.hpp"

#include <forma/json/from_json.hpp>

#include <boost/json/parse.hpp>

#include <algorithm>

namespace forma::openai {
namespace {

using namespace detail::responses_wire;

// Events of the API's own items that only frame what the mapped events carry. Any other
// event (a hosted tool's progress, audio, a type that does not exist yet) is kept raw.
bool is_framing(std::string_view type) noexcept {
    static constexpr std::string_view framing[] = {
        "response.output_item.added",         "response.content_part.added",
        "response.content_part.done",         "response.output_text.done",
        "response.output_text.annotation.added", "response.refusal.done",
        "response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
        "response.reasoning_summary_text.done",  "response.reasoning_text.done",
        "response.function_call_arguments.delta", "response.function_call_arguments.done",
        "response.output_item.done"};
    return std::find(std::begin(framing), std::end(framing), type) != std::end(framing);
}

bool has_call(const std::vector<content>& contents) {
    return std::any_of(contents.begin(), contents.end(),
                       [](const content& c) { return std::holds_alternative<function_call_content>(c); });
}

// The item at `index` of a raw response's output, or null.
const boost::json::value* raw_item(const boost::json::value& raw, std::size_t index) {
    const boost::json::object* object = raw.if_object();
    const boost::json::value* output = object ? object->if_contains("output") : nullptr;
    const boost::json::array* items = output ? output->if_array() : nullptr;
    return items && index < items->size() ? &(*items)[index] : nullptr;
}

} // namespace

agent_response<> parse_responses_response(std::string_view body, int status) {
    if (status < 200 || status > 299) throw parse_error(status, body);
    const response_wire wire = forma::from_json<response_wire>(body);
    if (wire.error || wire.status == "failed") throw failure_of(wire, status);

    agent_response<> response;
    response.response_id = wire.id.value_or("");
    response.created_at = detail::wire::to_time(wire.created_at);
    if (wire.model) response.additional_properties["model"] = *wire.model;
    if (wire.usage) response.usage = to_usage(*wire.usage);
    response.raw_representation = detail::wire::parse_raw(body);

    chat_message message(chat_role::assistant(), std::vector<content>{});
    message.message_id = response.response_id;
    message.created_at = response.created_at;
    if (wire.output)
        for (std::size_t i = 0; i < wire.output->size(); ++i)
            add_item_contents((*wire.output)[i], raw_item(response.raw_representation, i), message.contents);
    const std::string_view state = wire.status ? std::string_view(*wire.status) : "completed";
    response.finish_reason = finish_reason_of(wire, has_call(message.contents));
    if (is_unfinished(state)) {
        if (!responses_token::valid_id(response.response_id))
            throw json_error("/id", "an unfinished (" + std::string(state) + ") response needs an id to poll it "
                                    "by: 1 to 256 letters, digits, '_' and '-'");
        response.continuation_token = responses_token{response.response_id}.to_continuation_token();
    }
    else if (!message.contents.empty())
        response.messages.push_back(std::move(message));
    return response;
}

responses_stream_parser::responses_stream_parser(responses_stream_parser_options options)
    : options_(options), sse_(options.sse) {}

std::optional<agent_response_update> responses_stream_parser::next(std::string_view& input) {
    while (const net::sse_event* event = sse_.next(input))
        if (auto update = map_event(*event)) return update;
    return std::nullopt;
}

std::optional<agent_response_update> responses_stream_parser::map_event(const net::sse_event& event) {
    // The type is in the data; the `event:` line repeats it (and "message" when a server leaves it out).
    if (event.type == "error" && event.data.empty()) throw http_error(0, "", "the stream reported an error");
    ++events_;
    try {
        return map(event.data);
    } catch (const json_error& e) {
        std::string where = "event " + std::to_string(events_) + " of the response stream";
        if (last_sequence_) where += " (after sequence number " + std::to_string(*last_sequence_) + ")";
        throw stream_error(stream_error_kind::protocol, where + " is not a Responses API event: " + e.what());
    }
}

std::optional<agent_response_update> responses_stream_parser::map(std::string_view data) {
    event_wire event = forma::from_json<event_wire>(data);
    const std::string type = event.type.value_or("");
    event_sequence_ = event.sequence_number;
    if (event.sequence_number) last_sequence_ = std::max(last_sequence_.value_or(-1), *event.sequence_number);

    if (type == "error")
        throw http_error(0, event.code.value_or(""), event.message.value_or("the stream reported an error"),
                         event.code.value_or(""), event.param.value_or(""));

    std::string* delta = event.delta ? std::get_if<std::string>(&*event.delta) : nullptr;
    const bool answers = !options_.answer_tool.empty();
    agent_response_update update;
    auto add = [&](content c) {
        update.role = chat_role::assistant();
        update.contents.push_back(std::move(c));
    };
    bool known = true;
    if (event.response) {
        response_wire& r = *event.response;
        if (r.id && !r.id->empty()) response_id_ = *r.id;
        if (r.status) status_ = *r.status;
        if (r.created_at) created_ = r.created_at;
        if (type == "response.failed" || status_ == "failed") throw failure_of(r, 0);
        if (r.model && *r.model != model_) {
            model_ = *r.model;
            update.additional_properties["model"] = model_;
        }
        if (type == "response.completed" || type == "response.incomplete") {
            finished_ = true;
            update.finish_reason = finish_reason_of(r, calls_functions_, options_.answer_tool);
            if (r.usage) update.contents.emplace_back(usage_content(to_usage(*r.usage)));
        } else if (update.additional_properties.empty() && type != "response.created") {
            return std::nullopt; // in_progress, queued: nothing new
        }
    } else if (type == "response.output_text.delta") {
        if (!delta || delta->empty()) return std::nullopt;
        add(text_content(std::move(*delta)));
    } else if (type == "response.refusal.delta") {
        if (!delta || delta->empty()) return std::nullopt;
        add(refusal_content(std::move(*delta)));
    } else if (type == "response.reasoning_summary_text.delta" || type == "response.reasoning_text.delta") {
        if (!delta || delta->empty()) return std::nullopt;
        text_reasoning_content reasoning(std::move(*delta));
        if (event.item_id) reasoning.additional_properties["id"] = *event.item_id;
        add(std::move(reasoning));
    } else if (answers && type == "response.output_item.added" && event.item &&
               event.item->type == "function_call") {
        call_item& call = call_items_[event.item->id.value_or("")];
        call.named = true;
        call.answer = event.item->name == options_.answer_tool;
        return std::nullopt;
    } else if (answers && type == "response.function_call_arguments.delta") {
        if (!delta || delta->empty()) return std::nullopt;
        call_item& call = call_items_[event.item_id.value_or("")];
        if (!call.named) {
            call.held += *delta;
            return std::nullopt;
        }
        if (!call.answer) return std::nullopt;
        call.streamed = true;
        add(text_content(std::move(*delta)));
    } else if (answers && type == "response.output_item.done" && event.item && event.item->type == "function_call" &&
               event.item->name == options_.answer_tool) {
        const std::string* arguments = text_of(event.item->arguments);
        std::string rest = answer_rest(event.item->id.value_or(""), arguments ? *arguments : std::string());
        if (rest.empty()) return std::nullopt;
        add(text_content(std::move(rest)));
    } else if (type == "response.output_item.done" && event.item) {
        item_wire& item = *event.item;
        const std::string kind = item.type.value_or("");
        if (answers && kind == "function_call") call_items_.erase(item.id.value_or(""));
        if (kind == "message") return std::nullopt; // its text came as deltas
        if (kind == "reasoning") {
            if (!item.encrypted_content) return std::nullopt;
            item.summary.reset(); // its text came as deltas
        }
        std::vector<content> contents;
        if (kind == "function_call" || kind == "reasoning") {
            add_item_contents(item, nullptr, contents);
        } else {
            const boost::json::value raw = detail::wire::parse_raw(data);
            const boost::json::value* raw_of_item = raw.as_object().if_contains("item");
            add_item_contents(item, raw_of_item, contents);
        }
        calls_functions_ = calls_functions_ || kind == "function_call";
        for (content& c : contents) add(std::move(c));
    } else if (is_framing(type)) {
        return std::nullopt; // frames what the events above carry
    } else {
        known = false;
    }

    if (!known) update.raw_representation = detail::wire::parse_raw(data);
    update.response_id = response_id_;
    update.created_at = detail::wire::to_time(created_);
    if (!update.contents.empty() && !std::all_of(update.contents.begin(), update.contents.end(), [](const content& c) {
            return std::holds_alternative<usage_content>(c);
        }))
        update.message_id = response_id_;
    return update;
}

std::string responses_stream_parser::answer_rest(const std::string& item_id, std::string arguments) {
    const auto found = call_items_.find(item_id);
    if (found == call_items_.end()) return resumed_ ? std::string() : arguments; // all of it came before a resumption
    call_item call = std::move(found->second);
    call_items_.erase(found);
    if (!call.named) return std::move(call.held); // resumed after the item began: the deltas since
    return call.streamed ? std::string() : arguments;
}

void responses_stream_parser::finish() const {
    if (finished_) return;
    throw stream_error(stream_error_kind::incomplete,
                       sse_.in_event() ? "the response stream ended in the middle of an event, before "
                                         "response.completed: the answer is incomplete"
                                       : "the response stream ended before response.completed or "
                                         "response.incomplete: the answer is incomplete");
}

} // namespace forma::openai
