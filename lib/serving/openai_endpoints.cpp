// forma::serving::openai_endpoints: an agent behind OpenAI's Chat Completions and Responses APIs.
#include <forma/serving/openai_endpoints.hpp>
#include <forma/agent/served_agent.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/net/http_error.hpp>

#include "../agent/task_follow.hpp"
#include "../json/json_text.hpp"
#include "../net/media_type.hpp"
#include "../text/failure_text.hpp"
#include "../text/random_hex.hpp"
#include "openai_request.hpp"
#include "openai_shapes.hpp"

#include <boost/json/object.hpp>

#include <array>
#include <charconv>
#include <cstddef>

namespace forma::serving {

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using detail::error_body;
using text_detail::failure_text;

std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

net::http_reply json_reply(unsigned status, std::string body) {
    return {.status = status, .content_type = "application/json", .body = std::move(body)};
}

net::http_reply openai_error_shape(unsigned status, std::string_view message) {
    const std::string_view type = status == 401 || status == 403 ? "authentication_error"
                                  : status == 404               ? "not_found_error"
                                  : status >= 500               ? "server_error"
                                                                : "invalid_request_error";
    return json_reply(status, error_body(message, type));
}

net::http_reply invalid_request(const detail::request_error& e) {
    return json_reply(400, error_body(e.message, "invalid_request_error", e.param));
}

// A run that failed before answering: 400 when the model refused the request as invalid (what the
// caller asked for, such as its response format), else 500.
net::http_reply failed_run(const std::exception_ptr& failure) {
    const std::string why = "the agent failed: " + failure_text(failure);
    try {
        std::rethrow_exception(failure);
    } catch (const http_error& e) {
        if (e.status() == 400 || e.status() == 422) return json_reply(400, error_body(why, "invalid_request_error"));
    } catch (...) {
    }
    return json_reply(500, error_body(why, "server_error"));
}

} // namespace

struct openai_endpoints::state {
    state(forma::agent& a, openai_endpoints_options o)
        : options(with_model(a, std::move(o))), core(a, options.tasks, options.sessions) {}

    static openai_endpoints_options with_model(forma::agent& a, openai_endpoints_options o) {
        if (o.model.empty()) o.model = std::string(a.name()).empty() ? "forma" : std::string(a.name());
        return o;
    }

    openai_endpoints_options options;
    served_agent core;

    // The reply refusing a body that is not JSON by its Content-Type, or none.
    static std::optional<net::http_reply> refused_media_type(const net::server_request& request) {
        const std::string* type = request.header("Content-Type");
        if (!type || !net::detail::has_media_type(*type, net::detail::json_media_type))
            return openai_error_shape(415, "the body must be JSON (Content-Type: application/json)");
        return std::nullopt;
    }

    static asio::awaitable<void> send(net::response_writer& writer, net::http_reply reply) { co_await writer.send(std::move(reply)); }

    // ---- Chat Completions ------------------------------------------------------------

    // Read at once, then answered by one coroutine (whole or streamed): each coroutine frame
    // on a request's way costs an allocation.
    asio::awaitable<void> chat_completions(net::server_request& request, net::response_writer& writer) {
        if (std::optional<net::http_reply> refused = refused_media_type(request)) return send(writer, std::move(*refused));
        detail::run_request run;
        try {
            detail::read_chat_request(request.body, run);
        } catch (const detail::request_error& e) {
            return send(writer, invalid_request(e));
        }
        if (run.stream) return stream_chat_completion(writer, std::move(run));
        // Started here, not in the coroutine below: the run's arguments stay out of its frame, which
        // is then small enough for Asio to recycle.
        return whole_chat_completion(writer, core.served().run(std::move(run.input), session_ref{}, std::move(run.options)));
    }

    asio::awaitable<void> whole_chat_completion(net::response_writer& writer, asio::awaitable<agent_response<>> running) {
        std::optional<net::http_reply> reply; // not a default one, whose content type is a string made and dropped
        try {
            reply.emplace(completion_reply(co_await std::move(running)));
        } catch (...) {
            reply.emplace(failed_run(std::current_exception()));
        }
        co_await writer.send(std::move(*reply));
    }

    net::http_reply completion_reply(const agent_response<>& answer) const {
        // The id as make_unique_id("chatcmpl-") makes it, on the stack: it is copied into the text.
        constexpr std::string_view prefix = "chatcmpl-";
        std::array<char, prefix.size() + 32> id;
        prefix.copy(id.data(), prefix.size());
        text_detail::write_random_hex(id.data() + prefix.size());
        return json_reply(200, detail::chat_completion(answer, std::string_view(id.data(), id.size()), options.model, unix_now()));
    }

    asio::awaitable<void> stream_chat_completion(net::response_writer& writer, detail::run_request run) {
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
        co_await writer.start(std::move(head));
        const detail::chat_chunks chunks(make_unique_id("chatcmpl-"), options.model, unix_now());
        auto send = [&](std::string chunk) -> asio::awaitable<void> { co_await writer.write(net::format_sse_event(chunk)); };
        co_await send(chunks.chunk(R"({"role":"assistant","content":""})"));
        agent_response_builder answer;
        std::size_t messages_before_text = 0; // the answer's messages when text was last sent; 0: none sent yet
        std::exception_ptr failure;
        try {
            session_ref fresh;
            update_stream stream = core.served().run_streaming(std::move(run.input), std::move(fresh), std::move(run.options));
            for (;;) {
                std::optional<agent_response_update> update = co_await stream.next();
                if (!update) break;
                answer.add(*update);
                std::string text;
                for (const content& c : update->contents)
                    if (const auto* t = std::get_if<text_content>(&c)) text += t->text;
                if (text.empty()) continue;
                // Another message's text comes after a newline, as agent_response::text() joins them.
                const std::size_t messages = answer.response().messages.size();
                if (messages_before_text != 0 && messages != messages_before_text) text.insert(0, 1, '\n');
                messages_before_text = messages;
                co_await send(chunks.chunk(detail::chat_chunks::content(text)));
            }
        } catch (const boost::system::system_error& e) {
            if (e.code() == asio::error::operation_aborted && !writer.server_stopped()) throw; // the client left
            failure = std::current_exception();
        } catch (...) {
            failure = std::current_exception();
        }
        if (writer.server_stopped()) {
            writer.set_last_event(net::format_sse_event(error_body("the server is shutting down; the completion was cut short", "server_error")) +
                                  "data: [DONE]\n\n");
            co_return;
        }
        if (failure) {
            // A stream that has begun can only say so in-band, as OpenAI does.
            co_await writer.write(net::format_sse_event(error_body("the agent failed: " + failure_text(failure), "server_error")));
        } else {
            const agent_response<>& whole = answer.response();
            std::string finish = whole.finish_reason ? whole.finish_reason->value() : std::string("stop");
            if (const auto requests = whole.approval_requests(); !requests.empty()) {
                co_await send(chunks.chunk(detail::chat_chunks::tool_calls(requests)));
                finish = "tool_calls";
            }
            co_await send(chunks.chunk("{}", finish));
            if (run.include_usage) co_await send(chunks.usage(whole.usage));
        }
        co_await writer.write("data: [DONE]\n\n");
        co_await writer.finish();
    }

    // ---- Responses -------------------------------------------------------------------

    asio::awaitable<void> create_response(net::server_request& request, net::response_writer& writer) {
        if (std::optional<net::http_reply> refused_body = refused_media_type(request)) {
            co_await writer.send(std::move(*refused_body));
            co_return;
        }
        detail::responses_request_body body;
        detail::run_request run;
        std::optional<detail::request_error> refused;
        try {
            body = detail::read_responses_body(request.body);
            run = detail::read_responses_request(body);
        } catch (const detail::request_error& e) {
            refused = e;
        }
        if (refused) {
            co_await writer.send(invalid_request(*refused));
            co_return;
        }
        const std::string owner = served_agent::owner_of("openai", request.caller);
        std::string context_id;
        std::vector<function_approval_request_content> pending;
        std::optional<agent_task> previous;
        if (!run.previous_response_id.empty()) {
            previous = co_await core.load_owned(run.previous_response_id, owner);
            if (!previous) {
                co_await writer.send(json_reply(400, error_body("no response " + run.previous_response_id + " to continue",
                                                                "invalid_request_error", "previous_response_id")));
                co_return;
            }
            pending = last_answer(*previous).approval_requests();
        }
        // The input's answers to approval requests, each by the call id of a request it answers.
        try {
            detail::read_approval_answers(run.input, pending, "input");
        } catch (const detail::request_error& e) {
            refused = e;
        }
        if (refused) {
            co_await writer.send(invalid_request(*refused));
            co_return;
        }
        if (previous) {
            // A response waiting for its caller is answered once: of two answers, even at once, the first runs.
            if (previous->state == task_state::input_required || !pending.empty()) {
                const bool answered_here = co_await core.tasks()->transition(previous->id, task_state::input_required, task_state::completed);
                if (!answered_here) {
                    co_await writer.send(json_reply(409, error_body("the response " + run.previous_response_id +
                                                                        " is not waiting for an answer: it was answered already, or canceled",
                                                                    "invalid_request_error", "previous_response_id")));
                    co_return;
                }
            }
            context_id = previous->context_id;
        } else {
            context_id = make_unique_id();
        }
        agent_task task{.id = make_unique_id("resp_"), .context_id = context_id, .owner = owner, .input = run.input};
        task.properties = detail::response_base(task.id, options.model, unix_now(), body);
        co_await core.tasks()->create(task);
        core.start(task, std::move(run.input), std::move(run.options));
        try {
            if (run.stream) {
                co_await stream_response(writer, task.id, task.properties, run.background, std::nullopt);
                // Cut short as the server stops: a run that was the caller's alone ends with it.
                if (writer.server_stopped() && !run.store && !run.background) core.stop(task.id);
            } else if (run.background) {
                co_await writer.send(json_reply(200, json_detail::serialize_utf8(detail::response_of(task.properties, task))));
            } else {
                std::optional<agent_task> done = co_await core.settle(task.id, std::nullopt);
                if (done && done->state == task_state::failed) {
                    // Its caller waited for the answer: a run that failed is a 500, as OpenAI answers
                    // (the failed Response stays readable by its id, which the message names).
                    co_await writer.send(json_reply(500, error_body("the agent failed (response " + task.id + "): " + done->error, "server_error")));
                    co_return;
                }
                co_await send_response(writer, done);
            }
        } catch (...) {
            // Its caller left (the handler is canceled). A response neither background nor stored
            // was the caller's alone: its run ends. The others go on, to be read again.
            if (!run.store && !run.background) core.stop(task.id);
            throw;
        }
    }

    asio::awaitable<void> send_response(net::response_writer& writer, const std::optional<agent_task>& task) {
        if (!task) {
            co_await writer.send(openai_error_shape(404, "no such response"));
            co_return;
        }
        co_await writer.send(json_reply(200, json_detail::serialize_utf8(detail::response_of(task->properties, *task))));
    }

    // The events of a response from the start (those after `starting_after` sent), then as it goes on.
    asio::awaitable<void> stream_response(net::response_writer& writer, const std::string& id, const json::object& base,
                                          bool background, std::optional<std::size_t> starting_after) {
        net::http_reply head{.status = 200, .content_type = "text/event-stream", .headers = {{"Cache-Control", "no-cache"}}};
        co_await writer.start(std::move(head));
        detail::response_events events(base, background);
        auto send = [&](std::vector<json::object> batch) -> asio::awaitable<void> {
            std::string text;
            for (const json::object& e : batch) {
                if (starting_after && e.at("sequence_number").to_number<std::size_t>() <= *starting_after) continue;
                text += net::format_sse_event(json_detail::serialize_utf8(e), e.at("type").as_string());
            }
            co_await writer.write(text);
        };
        co_await send(events.start());
        bool cut = false;
        try {
            co_await follow_response(writer, id, events, send);
        } catch (...) {
            if (!writer.server_stopped()) throw; // the client left
            cut = true;
        }
        if (cut) {
            const json::object last = events.error("server_shutting_down", "the server is shutting down; the stream of the response " + id + " was cut short");
            writer.set_last_event(net::format_sse_event(json_detail::serialize_utf8(last), "error"));
            co_return;
        }
        co_await writer.finish();
    }

    // The events of a response as its task goes on, until it stops (or is gone from the store).
    template <class Send>
    asio::awaitable<void> follow_response(net::response_writer& writer, const std::string& id, detail::response_events& events, Send& send) {
        agent_detail::follow_position at;
        for (;;) {
            std::optional<task_changes> changes = co_await agent_detail::next_task_changes(*core.tasks(), writer, id, at);
            if (!changes) co_return;
            std::vector<json::object> batch;
            for (const agent_response_update& u : changes->updates)
                for (auto& e : events.add(u)) batch.push_back(std::move(e));
            co_await send(std::move(batch));
            if (has_stopped(changes->state)) {
                std::optional<agent_task> task = co_await core.tasks()->load(id);
                if (task) co_await send(events.finish(*task));
                co_return;
            }
        }
    }

    // GET /responses/{id}[?stream=true&starting_after=N] and POST /responses/{id}/cancel.
    asio::awaitable<void> existing_response(net::server_request& request, net::response_writer& writer) {
        const std::string prefix = options.base_path + "/responses/";
        std::string rest = request.path.substr(prefix.size());
        const bool cancel = rest.ends_with("/cancel");
        if (cancel) rest.resize(rest.size() - std::string_view("/cancel").size());
        if (rest.empty() || rest.find('/') != std::string::npos || cancel != (request.method == "POST")) {
            co_await writer.send(openai_error_shape(404, "nothing is served at " + request.path));
            co_return;
        }
        std::optional<agent_task> task = co_await core.load_owned(rest, served_agent::owner_of("openai", request.caller));
        if (!task) {
            co_await writer.send(openai_error_shape(404, "no response " + rest));
            co_return;
        }
        if (cancel) {
            if (!is_final(task->state)) {
                co_await core.cancel(*task);
                task = co_await core.settle(task->id, std::chrono::steady_clock::now() + std::chrono::seconds(5));
            }
            co_await send_response(writer, task);
            co_return;
        }
        if (request.query_parameter("stream") == "true") {
            std::optional<std::size_t> after;
            if (const std::string n = request.query_parameter("starting_after"); !n.empty()) {
                std::size_t value = 0;
                const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), value);
                if (ec != std::errc() || end != n.data() + n.size()) {
                    co_await writer.send(json_reply(400, error_body("starting_after must be an event's sequence number", "invalid_request_error", "starting_after")));
                    co_return;
                }
                after = value;
            }
            const json::value* background = task->properties.if_contains("background");
            co_await stream_response(writer, task->id, task->properties, background && background->is_bool() && background->get_bool(), after);
            co_return;
        }
        co_await send_response(writer, task);
    }
};

openai_endpoints::openai_endpoints(forma::agent& served, openai_endpoints_options options)
    : state_(std::make_shared<state>(served, std::move(options))) {}

openai_endpoints::~openai_endpoints() = default;

net::http_routes openai_endpoints::routes() const {
    net::http_routes routes;
    routes.shape_errors(&openai_error_shape);
    const auto s = state_;
    const std::string& base = s->options.base_path;
    // The state outlives the routes' handlers (each holds it), so a handler may hand back its coroutine.
    routes.add("POST", base + "/chat/completions",
               [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { return s->chat_completions(r, w); });
    routes.add("POST", base + "/responses",
               [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->create_response(r, w); });
    routes.add("*", base + "/responses/*",
               [s](net::server_request& r, net::response_writer& w) -> asio::awaitable<void> { co_await s->existing_response(r, w); });
    routes.add("GET", base + "/models", [s](net::server_request&, net::response_writer& w) -> asio::awaitable<void> {
        const json::object list{{"object", "list"},
                                {"data", json::array{{{"id", s->options.model}, {"object", "model"}, {"created", 0}, {"owned_by", "forma"}}}}};
        co_await w.send(json_reply(200, json_detail::serialize_utf8(list)));
    });
    return routes;
}

} // namespace forma::serving
