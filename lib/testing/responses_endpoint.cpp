#include "responses_endpoint.hpp"

#include "responses_shapes.hpp"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <optional>
#include <vector>

namespace forma::testing::detail {
namespace {

namespace json = boost::json;
using clock = responses_endpoint::clock;

bool flag(const json::object& o, std::string_view key, bool otherwise) {
    const json::value* v = o.if_contains(key);
    return v && v->is_bool() ? v->get_bool() : otherwise;
}

// An item's type; an input message may leave it out (EasyInputMessage).
std::string_view item_type(const json::object& item) {
    const std::string_view type = string_at(item, "type");
    return type.empty() && item.contains("role") ? "message" : type;
}

// What a CreateResponse body asks, over the whole conversation (history, then this input).
answer_request read_responses_request(const json::object& fields, const json::array& conversation) {
    answer_request request;
    request.schema_field = "text.format.schema";
    for (const json::value& v : conversation) {
        const json::object* item = v.if_object();
        if (!item || item_type(*item) != "message" || string_at(*item, "role") != "user") continue;
        add_user_text(request, content_text(item->if_contains("content"), {"input_text", "output_text"}));
    }
    if (!conversation.empty())
        if (const json::object* last = conversation.back().if_object())
            request.ends_with_tool_result = item_type(*last) == "function_call_output";
    if (const json::value* tools = fields.if_contains("tools"); tools && tools->is_array())
        for (const json::value& t : tools->get_array()) {
            const json::object* tool = t.if_object();
            if (!tool || string_at(*tool, "type") != "function" || string_at(*tool, "name").empty()) continue;
            const json::value* parameters = tool->if_contains("parameters");
            request.tools.push_back(
                {std::string(string_at(*tool, "name")), parameters ? parameters->if_object() : nullptr});
        }
    request.parallel_tool_calls = flag(fields, "parallel_tool_calls", true);
    const json::value* choice = fields.if_contains("tool_choice");
    request.tools_forbidden = choice && *choice == "none";
    const json::object* named = choice ? choice->if_object() : nullptr;
    if (named && string_at(*named, "type") == "function") request.named_tool = std::string(string_at(*named, "name"));
    const json::value* text = fields.if_contains("text");
    const json::value* format = text && text->is_object() ? text->get_object().if_contains("format") : nullptr;
    if (const json::object* f = format ? format->if_object() : nullptr) {
        if (string_at(*f, "type") == "json_schema") {
            request.format = answer_format::json_schema;
            const json::value* schema = f->if_contains("schema");
            request.schema = schema ? schema->if_object() : nullptr;
        } else if (string_at(*f, "type") == "json_object") {
            request.format = answer_format::json_object;
        }
    }
    return request;
}

// The request's settings a Response echoes, in the shapes the Response's definition takes.
void echo_request(json::object& base, const json::object& fields) {
    for (std::string_view key : {"instructions", "previous_response_id"})
        if (const json::value* v = fields.if_contains(key); v && v->is_string()) base[key] = *v;
    if (const json::value* v = fields.if_contains("max_output_tokens"); v && v->is_int64())
        base["max_output_tokens"] = *v;
    for (std::string_view key : {"temperature", "top_p"})
        if (const json::value* v = fields.if_contains(key); v && v->is_number()) base[key] = *v;
    base["parallel_tool_calls"] = flag(fields, "parallel_tool_calls", true);
    if (const json::value* v = fields.if_contains("metadata"); v && v->is_object()) {
        json::object metadata;
        for (const auto& [key, value] : v->get_object())
            if (value.is_string()) metadata[key] = value;
        base["metadata"] = std::move(metadata);
    }
    json::array tools;
    if (const json::value* v = fields.if_contains("tools"); v && v->is_array())
        for (const json::value& t : v->get_array()) {
            const json::object* tool = t.if_object();
            if (!tool || string_at(*tool, "type") != "function" || string_at(*tool, "name").empty()) continue;
            const json::value* description = tool->if_contains("description");
            const json::value* parameters = tool->if_contains("parameters");
            const json::value* strict = tool->if_contains("strict");
            tools.push_back(json::object{
                {"type", "function"},
                {"name", tool->at("name")},
                {"description", description && description->is_string() ? *description : json::value(nullptr)},
                {"parameters", parameters && parameters->is_object() ? *parameters : json::value(nullptr)},
                {"strict", strict && strict->is_bool() ? *strict : json::value(nullptr)}});
        }
    base["tools"] = std::move(tools);
    if (const json::value* choice = fields.if_contains("tool_choice")) {
        if (*choice == "none" || *choice == "auto" || *choice == "required") base["tool_choice"] = *choice;
        if (const json::object* named = choice->if_object(); named && string_at(*named, "type") == "function")
            base["tool_choice"] = json::object{{"type", "function"}, {"name", string_at(*named, "name")}};
    }
    const json::value* text = fields.if_contains("text");
    const json::value* format = text && text->is_object() ? text->get_object().if_contains("format") : nullptr;
    if (const json::object* f = format ? format->if_object() : nullptr) {
        const std::string_view type = string_at(*f, "type");
        if (type == "json_object") base["text"] = json::object{{"format", json::object{{"type", type}}}};
        const json::value* schema = f->if_contains("schema");
        if (type == "json_schema" && schema && schema->is_object()) {
            const json::value* strict = f->if_contains("strict");
            const std::string_view name = string_at(*f, "name");
            base["text"] = json::object{
                {"format", json::object{{"type", type},
                                        {"name", name.empty() ? std::string_view("response") : name},
                                        {"schema", *schema},
                                        {"strict", strict && strict->is_bool() ? *strict : json::value(nullptr)}}}};
        }
    }
}

bool wants_encrypted_reasoning(const json::object& fields) {
    const json::value* include = fields.if_contains("include");
    if (!include || !include->is_array()) return false;
    const json::array& list = include->get_array();
    return std::find(list.begin(), list.end(), json::value("reasoning.encrypted_content")) != list.end();
}

scripted_reply not_found(std::string_view what, std::string_view id) {
    std::string message(what);
    message.append(" with id '").append(id).append("' not found.");
    return scripted_reply::error(404, "invalid_request_error", message, "response_not_found");
}

scripted_reply not_allowed(std::string_view method, std::string_view allowed) {
    std::string message("Method ");
    message.append(method).append(" is not allowed here; use ").append(allowed).append(".");
    return scripted_reply::error(405, "invalid_request_error", message).with_header("Allow", std::string(allowed));
}

// The value of `name` in a query string ("a=1&b=2"), undecoded.
std::optional<std::string_view> query_param(std::string_view query, std::string_view name) {
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        const std::size_t eq = pair.find('=');
        if (pair.substr(0, eq) == name) return eq == std::string_view::npos ? "" : pair.substr(eq + 1);
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

// The path split at its last `/responses` segment: what follows it ("", "/{id}", "/{id}/cancel").
std::optional<std::string_view> after_responses(std::string_view target) {
    const std::string_view path = target.substr(0, target.find('?'));
    constexpr std::string_view segment = "/responses";
    const std::size_t at = path.rfind(segment);
    if (at == std::string_view::npos) return std::nullopt;
    const std::string_view rest = path.substr(at + segment.size());
    if (!rest.empty() && rest.front() != '/') return std::nullopt;
    return rest;
}

std::chrono::milliseconds ceil_ms(clock::duration d) {
    return std::max(std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(d));
}

} // namespace

// One created response: its Response at the end, its events and when each falls due.
struct responses_endpoint::run {
    json::object base;
    json::object final_response;
    /// The conversation it answered (history and input), for a later previous_response_id.
    json::array conversation;
    std::vector<std::string> events;
    std::vector<clock::duration> due; // after `created`; sorted
    std::vector<std::size_t> item_done;
    clock::time_point created;
    bool background = false;
    /// Time since `created` of the cancel (its rep), or -1.
    std::atomic<clock::rep> cancelled_at{-1};

    std::optional<clock::duration> cancelled() const {
        const clock::rep at = cancelled_at.load();
        return at < 0 ? std::nullopt : std::optional(clock::duration(at));
    }
    bool finished(clock::time_point now) const { return now - created >= due.back(); }
    /// Whether event `i` goes out: not when it falls due after a cancel.
    bool sends(std::size_t i) const {
        const std::optional<clock::duration> at = cancelled();
        return !at || due[i] <= *at;
    }
    /// How many events are due at `now` (those before the cancel, once cancelled).
    std::size_t due_count(clock::time_point now) const {
        const clock::duration limit = cancelled().value_or(now - created);
        return static_cast<std::size_t>(std::upper_bound(due.begin(), due.end(), limit) - due.begin());
    }
    std::string_view status(clock::time_point now) const {
        if (cancelled()) return "cancelled";
        if (finished(now)) return string_at(final_response, "status");
        return now - created >= due[1] ? "in_progress" : "queued";
    }
    /// The Response as it stands at `now`: the items done so far until it ends.
    json::object response(clock::time_point now) const {
        const std::string_view s = status(now);
        if (s == "completed" || s == "incomplete") return final_response;
        const std::size_t count = due_count(now);
        const json::array& items = final_response.at("output").as_array();
        json::array output;
        for (std::size_t i = 0; i < items.size(); ++i)
            if (item_done[i] < count) output.push_back(items[i]);
        return response_at(base, s, std::move(output), nullptr);
    }
};

bool responses_endpoint::serves(std::string_view target) noexcept {
    const std::optional<std::string_view> rest = after_responses(target);
    if (!rest) return false;
    if (rest->empty()) return true;
    const std::string_view id = rest->substr(1, rest->find('/', 1) - 1);
    const std::string_view tail = rest->substr(1 + id.size());
    return !id.empty() && (tail.empty() || tail == "/cancel");
}

scripted_reply responses_endpoint::answer(std::string_view method, std::string_view target, std::string_view body,
                                          const generation& options, clock::time_point now) {
    const std::string_view rest = after_responses(target).value_or("");
    const std::size_t q = target.find('?');
    const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    if (rest.empty()) return method == "POST" ? create(body, options, now) : not_allowed(method, "POST");
    const std::string_view id = rest.substr(1, rest.find('/', 1) - 1);
    if (rest.size() > id.size() + 1) return method == "POST" ? cancel(id, now) : not_allowed(method, "POST");
    return method == "GET" ? retrieve(id, query, options, now) : not_allowed(method, "GET");
}

scripted_reply responses_endpoint::create(std::string_view body, const generation& options, clock::time_point now) {
    std::variant<json::object, scripted_reply> request = request_object(body);
    if (auto* refused = std::get_if<scripted_reply>(&request)) return std::move(*refused);
    const json::object* fields = &std::get<json::object>(request);
    const json::value* input = fields->if_contains("input");
    if (!input || !(input->is_string() || input->is_array()))
        return bad_request("'input' is a required property and must be a string or an array of items.");
    const bool store = flag(*fields, "store", true);
    const bool background = flag(*fields, "background", false);
    if (background && !store) return bad_request("A background response must be stored: background needs store true.");

    auto r = std::make_shared<run>();
    r->created = now;
    r->background = background;
    if (const json::value* previous = fields->if_contains("previous_response_id"); previous && previous->is_string()) {
        const std::shared_ptr<const run> earlier = find(previous->get_string());
        if (!earlier) return not_found("Previous response", previous->get_string());
        r->conversation = earlier->conversation;
        const json::object before = earlier->response(now);
        for (const json::value& item : before.at("output").as_array()) r->conversation.push_back(item);
    }
    if (input->is_string())
        r->conversation.push_back(json::object{{"type", "message"}, {"role", "user"}, {"content", *input}});
    else
        for (const json::value& item : input->get_array()) r->conversation.push_back(item);

    const answer_request asked = read_responses_request(*fields, r->conversation);
    const decided_answer answer = decide_answer(asked, options);
    if (!answer.error.empty()) return bad_request(answer.error);

    const std::string n = std::to_string(options.request_number);
    r->base = response_base("resp_" + n, options.model, unix_now());
    r->base["background"] = background;
    r->base["store"] = store;
    echo_request(r->base, *fields);

    json::array output;
    response_usage usage{.input_tokens = static_cast<std::int64_t>(count_words(asked.prompt))};
    if (!options.reasoning_summary.empty()) {
        output.push_back(reasoning_item("rs_" + n, options.reasoning_summary,
                                        wants_encrypted_reasoning(*fields) ? "enc_" + n : std::string()));
        usage.reasoning_tokens = static_cast<std::int64_t>(count_words(options.reasoning_summary));
    }
    std::size_t words = 0;
    for (std::size_t i = 0; i < answer.calls.size(); ++i) {
        output.push_back(function_call_item(std::string("fc_").append(n).append("_").append(std::to_string(i)),
                                            answer.calls[i]));
        words += count_words(answer.calls[i].arguments);
    }
    bool incomplete = false;
    if (answer.calls.empty()) {
        std::string_view text = answer.text;
        const json::value* limit = fields->if_contains("max_output_tokens");
        if (limit && limit->is_int64() && limit->get_int64() >= 0 &&
            count_words(text) > static_cast<std::uint64_t>(limit->get_int64())) {
            text = first_words(text, static_cast<std::size_t>(limit->get_int64()));
            incomplete = true;
        }
        output.push_back(message_item("msg_" + n, text, incomplete ? "incomplete" : "completed"));
        words += count_words(text);
    }
    usage.output_tokens = usage.reasoning_tokens + static_cast<std::int64_t>(words);
    r->final_response = response_at(r->base, incomplete ? "incomplete" : "completed", std::move(output), &usage);

    response_events streamed = stream_response(r->final_response, background ? "queued" : "in_progress",
                                               options.delta_size);
    r->events = std::move(streamed.events);
    r->item_done = std::move(streamed.item_done);
    // A background run: created at once, in progress after a tenth, the rest spread evenly to the end.
    const std::size_t count = r->events.size();
    r->due.assign(count, clock::duration::zero());
    if (background) {
        const clock::duration whole = options.background_duration;
        const clock::duration start = whole / 10;
        for (std::size_t i = 1; i < count; ++i)
            r->due[i] = start + (whole - start) * static_cast<clock::rep>(i - 1) / static_cast<clock::rep>(count - 2);
    }
    if (store) keep(r);

    if (flag(*fields, "stream", false)) return stream(std::move(r), 0, options, now);
    return scripted_reply::json(json::serialize(background ? r->response(now) : r->final_response));
}

scripted_reply responses_endpoint::retrieve(std::string_view id, std::string_view query, const generation& options,
                                            clock::time_point now) const {
    std::shared_ptr<const run> r = find(id);
    if (!r) return not_found("Response", id);
    if (query_param(query, "stream").value_or("") != "true")
        return scripted_reply::json(json::serialize(r->response(now)));
    std::size_t first = 0;
    if (const std::optional<std::string_view> after = query_param(query, "starting_after")) {
        long long n = 0;
        const auto [end, ec] = std::from_chars(after->data(), after->data() + after->size(), n);
        if (ec != std::errc() || end != after->data() + after->size() || n < -1)
            return bad_request("starting_after must be an integer sequence number.");
        first = static_cast<std::size_t>(n + 1);
    }
    return stream(std::move(r), first, options, now);
}

scripted_reply responses_endpoint::cancel(std::string_view id, clock::time_point now) const {
    const std::shared_ptr<run> r = find(id);
    if (!r) return not_found("Response", id);
    if (!r->background)
        return bad_request(std::string("Only a response created with background true can be cancelled; '")
                               .append(id)
                               .append("' was not."));
    if (!r->cancelled()) {
        if (r->finished(now)) {
            std::string message("Cannot cancel response '");
            message.append(id).append("': it is already ").append(r->status(now)).append(".");
            return bad_request(message);
        }
        clock::rep none = -1;
        r->cancelled_at.compare_exchange_strong(none, (now - r->created).count());
    }
    // Cancelling again answers the cancelled Response, as OpenAI's does.
    return scripted_reply::json(json::serialize(r->response(now)));
}

std::shared_ptr<responses_endpoint::run> responses_endpoint::find(std::string_view id) const {
    std::lock_guard lock(mutex_);
    const auto it = runs_.find(id);
    return it == runs_.end() ? nullptr : it->second;
}

void responses_endpoint::keep(std::shared_ptr<run> r) {
    std::string id(string_at(r->base, "id"));
    std::lock_guard lock(mutex_);
    if (order_.size() == max_stored) {
        runs_.erase(order_.front());
        order_.pop_front();
    }
    order_.push_back(id);
    runs_[std::move(id)] = std::move(r);
}

scripted_reply responses_endpoint::stream(std::shared_ptr<const run> r, std::size_t first, const generation& options,
                                          clock::time_point now) {
    scripted_reply reply;
    reply.content_type = "text/event-stream";
    const std::size_t end = r->cancelled() ? r->due_count(now) : r->events.size();
    const clock::duration elapsed = now - r->created;
    std::chrono::milliseconds waited{0};
    bool timed = false;
    for (std::size_t i = first; i < end; ++i) {
        reply.chunks.push_back(r->events[i]);
        // Each chunk waits for its event's due time, counted from when the reply starts.
        const std::chrono::milliseconds wait = ceil_ms(r->due[i] - elapsed);
        reply.chunk_delays.push_back(std::max(wait - waited, std::chrono::milliseconds(0)));
        waited = std::max(wait, waited);
        timed = timed || wait.count() > 0;
    }
    if (timed) {
        reply.chunk_gate = [r, first](std::size_t chunk) { return r->sends(first + chunk); };
    } else {
        reply.chunk_delays.clear();
        reply.chunk_delay = options.chunk_delay;
    }
    if (options.drop_stream_after_events && reply.chunks.size() > *options.drop_stream_after_events)
        reply.drop_after(*options.drop_stream_after_events);
    return reply;
}

} // namespace forma::testing::detail
