#include <forma/anthropic/stream_parser.hpp>

#include "wire.hpp"

#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>
#include <forma/net/stream_error.hpp>

#include <boost/json/parse.hpp>

#include <variant>

namespace forma::anthropic {

namespace json = boost::json;

namespace {

struct message_wire {
    std::optional<std::string> id;
    std::optional<std::string> model;
    std::optional<detail::usage_wire> usage;
};
BOOST_DESCRIBE_STRUCT(message_wire, (), (id, model, usage))

struct block_wire {
    std::optional<std::string> type;
    std::optional<std::string> id;
    std::optional<std::string> name;
    std::optional<std::string> text;
    std::optional<std::string> thinking;
    std::optional<std::string> signature;
    std::optional<std::string> data;
};
BOOST_DESCRIBE_STRUCT(block_wire, (), (type, id, name, text, thinking, signature, data))

struct stop_details_wire {
    std::optional<std::string> explanation;
};
BOOST_DESCRIBE_STRUCT(stop_details_wire, (), (explanation))

struct delta_wire {
    std::optional<std::string> type;
    std::optional<std::string> text;
    std::optional<std::string> thinking;
    std::optional<std::string> signature;
    std::optional<std::string> partial_json;
    std::optional<std::string> stop_reason;
    std::optional<stop_details_wire> stop_details;
};
BOOST_DESCRIBE_STRUCT(delta_wire, (), (type, text, thinking, signature, partial_json, stop_reason, stop_details))

// Every event's members in one struct; `message` is an object in message_start and a string
// in llama-server's flat error events.
struct event_wire {
    std::optional<std::string> type;
    std::optional<std::int64_t> index;
    std::optional<std::variant<message_wire, std::string>> message;
    std::optional<block_wire> content_block;
    std::optional<delta_wire> delta;
    std::optional<detail::usage_wire> usage;
    std::optional<detail::error_wire> error;
};
BOOST_DESCRIBE_STRUCT(event_wire, (), (type, index, message, content_block, delta, usage, error))

[[noreturn]] void broken(const std::string& why) { throw stream_error(stream_error_kind::protocol, why); }

agent_response_update with(content c) {
    agent_response_update update;
    update.contents.push_back(std::move(c));
    return update;
}

} // namespace

stream_parser::stream_parser(stream_parser_options options) : options_(std::move(options)), sse_(options_.sse) {}

std::optional<agent_response_update> stream_parser::next(std::string_view& input) {
    while (!done_) {
        const net::sse_event* event = sse_.next(input);
        if (!event) return std::nullopt;
        if (std::optional<agent_response_update> update = map_event(*event)) return update;
    }
    input = {};
    return std::nullopt;
}

stream_parser::open_block& stream_parser::block_at(std::int64_t index, bool starting) {
    if (index < 0 || index > 4096) broken("a content block index out of range: " + std::to_string(index));
    const auto i = static_cast<std::size_t>(index);
    if (i >= blocks_.size()) {
        if (!starting) broken("content block " + std::to_string(index) + " grew or stopped before it started");
        blocks_.resize(i + 1);
    }
    if (!starting && blocks_[i].type == open_block::kind::none)
        broken("content block " + std::to_string(index) + " grew or stopped before it started");
    return blocks_[i];
}

std::optional<agent_response_update> stream_parser::map_event(const net::sse_event& event) {
    if (event.type == "ping") return std::nullopt;
    event_wire e = from_json<event_wire>(event.data);
    const std::string_view type = e.type ? std::string_view(*e.type) : std::string_view(event.type);
    if (event.type == "error" || type == "error" || e.error) {
        if (e.error) throw detail::to_http_error(0, *e.error);
        const std::string* message = e.message ? std::get_if<std::string>(&*e.message) : nullptr;
        throw detail::to_http_error(0, {.type = e.type, .message = message ? std::optional(*message) : std::nullopt});
    }
    if (type == "message_start") {
        agent_response_update update;
        update.role = chat_role::assistant();
        if (const message_wire* m = e.message ? std::get_if<message_wire>(&*e.message) : nullptr) {
            update.response_id = update.message_id = m->id.value_or("");
            if (m->model && !m->model->empty()) update.additional_properties["model"] = *m->model;
            if (m->usage) {
                input_tokens_ = m->usage->input_tokens;
                output_tokens_ = m->usage->output_tokens;
                cache_creation_tokens_ = m->usage->cache_creation_input_tokens;
                cache_read_tokens_ = m->usage->cache_read_input_tokens;
            }
        }
        return update;
    }
    if (type == "content_block_start") {
        static const block_wire no_block{};
        const block_wire& b = e.content_block ? *e.content_block : no_block;
        open_block& block = block_at(e.index.value_or(0), true);
        if (block.type != open_block::kind::none) return std::nullopt; // started again while open (llama-server may)
        const std::string kind = b.type.value_or("");
        if (kind == "text") {
            block.type = open_block::kind::text;
            if (b.text && !b.text->empty()) return with(text_content(*b.text));
        } else if (kind == "thinking") {
            block.type = open_block::kind::thinking;
            block.signature = b.signature.value_or("");
            if (b.thinking && !b.thinking->empty()) return with(text_reasoning_content(*b.thinking));
        } else if (kind == "redacted_thinking") {
            block.type = open_block::kind::other; // whole at its start
            return with(detail::thinking_of({}, b.data.value_or(""), true));
        } else if (kind == "tool_use") {
            block.type = open_block::kind::tool_use;
            block.id = b.id.value_or("");
            block.name = b.name.value_or("");
            block.answer = !options_.answer_tool.empty() && block.name == options_.answer_tool;
            if (!block.answer) ++other_calls_;
        } else {
            block.type = open_block::kind::other; // a server tool's block: kept as it started
            block.raw = event.data;
            block.name = kind;
        }
        return std::nullopt;
    }
    if (type == "content_block_delta") {
        open_block& block = block_at(e.index.value_or(0), false);
        if (!e.delta) return std::nullopt;
        delta_wire& d = *e.delta; // the event's own strings move into the update: no copy per delta
        if (d.text && !d.text->empty()) return with(text_content(std::move(*d.text)));
        if (d.thinking && !d.thinking->empty()) return with(text_reasoning_content(std::move(*d.thinking)));
        if (d.signature) block.signature = std::move(*d.signature);
        if (d.partial_json && !d.partial_json->empty()) {
            if (block.answer) return with(text_content(std::move(*d.partial_json)));
            block.input += *d.partial_json;
        }
        return std::nullopt;
    }
    if (type == "content_block_stop") {
        open_block& block = block_at(e.index.value_or(0), false);
        open_block ended = std::move(block);
        block = {};
        switch (ended.type) {
        case open_block::kind::thinking:
            if (ended.signature.empty()) return std::nullopt; // llama-server's: nothing to carry back
            return with(detail::thinking_of({}, std::move(ended.signature), false));
        case open_block::kind::tool_use: {
            if (ended.answer) return std::nullopt;
            return with(detail::call_of_text(std::move(ended.id), std::move(ended.name), ended.input));
        }
        case open_block::kind::other:
            if (!ended.raw.empty()) {
                json::value start = json::parse(ended.raw);
                if (json::value* b = start.as_object().if_contains("content_block"); b && b->is_object())
                    return with(unknown_content(ended.name, std::move(b->get_object())));
            }
            return std::nullopt;
        case open_block::kind::text:
        case open_block::kind::none: return std::nullopt;
        }
        return std::nullopt;
    }
    if (type == "message_delta") {
        agent_response_update update;
        if (e.delta && e.delta->stop_reason && !e.delta->stop_reason->empty()) {
            const std::string& stop = *e.delta->stop_reason;
            stopped_ = true;
            update.finish_reason = stop == "tool_use" && other_calls_ == 0 && !options_.answer_tool.empty()
                                       ? finish_reason::stop()
                                       : detail::to_finish_reason(stop);
            if (stop == "refusal") {
                const std::string explanation = e.delta->stop_details ? e.delta->stop_details->explanation.value_or("") : "";
                update.contents.push_back(detail::refusal_of(explanation));
            }
        }
        if (e.usage) {
            if (e.usage->input_tokens) input_tokens_ = e.usage->input_tokens;
            if (e.usage->output_tokens) output_tokens_ = e.usage->output_tokens;
            if (e.usage->cache_creation_input_tokens) cache_creation_tokens_ = e.usage->cache_creation_input_tokens;
            if (e.usage->cache_read_input_tokens) cache_read_tokens_ = e.usage->cache_read_input_tokens;
            // The counts are totals so far and a merged response sums usage: each event adds what grew.
            const auto grown = [](const std::optional<std::int64_t>& total, std::int64_t& told) -> std::optional<std::int64_t> {
                if (!total) return std::nullopt;
                const std::int64_t more = *total - told;
                told = *total;
                return more;
            };
            update.contents.push_back(usage_content(detail::to_usage({.input_tokens = grown(input_tokens_, told_[0]),
                                                                      .output_tokens = grown(output_tokens_, told_[1]),
                                                                      .cache_creation_input_tokens = grown(cache_creation_tokens_, told_[2]),
                                                                      .cache_read_input_tokens = grown(cache_read_tokens_, told_[3])})));
        }
        if (update.contents.empty() && !update.finish_reason) return std::nullopt;
        return update;
    }
    if (type == "message_stop") done_ = true;
    return std::nullopt; // message_stop, and event types added later
}

void stream_parser::finish() const {
    if (done_ || stopped_) return;
    throw stream_error(stream_error_kind::incomplete,
                       sse_.in_event() ? "the Messages stream ended in the middle of an event, before message_stop: "
                                         "the answer is incomplete"
                                       : "the Messages stream ended before message_stop and before a stop reason: "
                                         "the answer is incomplete");
}

} // namespace forma::anthropic
