#include "load_plan.hpp"

#include <forma/json/json_error.hpp>
#include <forma/json/to_json.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/net/http_error.hpp>
#include <forma/net/stream_error.hpp>
#include <forma/net/transport_error.hpp>

#include <boost/json/parse.hpp>

#include <charconv>

namespace load {

using forma::testing::scripted_reply;

namespace {

constexpr std::size_t delta_size = 16;

// A chunk of a Chat Completions stream with the assistant's role and no text yet.
const std::string role_chunk =
    R"({"id":"chatcmpl-load","object":"chat.completion.chunk","created":1,"model":"forma-local",)"
    R"("choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})";

std::string content_chunk(std::string_view text) {
    return R"({"id":"chatcmpl-load","object":"chat.completion.chunk","created":1,"model":"forma-local",)"
           R"("choices":[{"index":0,"delta":{"content":")" +
           std::string(text) + R"("},"finish_reason":null}]})";
}

// The start of an answer, as JSON string text: for a typed run, the start of a JSON object, so
// that the run fails for the fault injected after it and not because its text is not JSON.
std::string_view a_start(const run_plan& plan) {
    return plan.typed ? R"({\"run\":)" : "half an answer";
}

// The answer's content as the server streams it: the text, or the typed answer's JSON.
std::string content_of(const run_plan& plan) {
    return plan.typed ? forma::to_json(expected_answer(plan.id)) : expected_text(plan);
}

std::string describe(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        return std::string("an exception: ") + e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

// "" when `failure` is an Error for which `as_planned` holds.
template <class Error, class Check>
std::string expect_error(std::exception_ptr failure, const char* wanted, Check as_planned) {
    if (!failure) return std::string("no error, expected ") + wanted;
    try {
        std::rethrow_exception(failure);
    } catch (const Error& e) {
        if (as_planned(e)) return {};
        return std::string("expected ") + wanted + ", got: " + e.what();
    } catch (...) {
    }
    return std::string("expected ") + wanted + ", got " + describe(failure);
}

} // namespace

std::string_view name_of(fault kind) noexcept {
    switch (kind) {
    case fault::none:
        return "none";
    case fault::dropped:
        return "dropped";
    case fault::stalled:
        return "stalled";
    case fault::malformed_event:
        return "malformed_event";
    case fault::rate_limited:
        return "rate_limited";
    case fault::server_error:
        return "server_error";
    case fault::error_event:
        return "error_event";
    case fault::incomplete:
        return "incomplete";
    case fault::truncated:
        return "truncated";
    }
    return "?";
}

run_plan load_plan_for(int id) noexcept {
    run_plan plan{.id = id, .kind = fault::none, .typed = id % 2 == 1, .rate_limited_once = false};
    if (id % 10 == 7)
        plan.kind = static_cast<fault>(1 + (id / 10) % fault_kinds);
    else
        plan.rate_limited_once = id % 20 == 3 || id % 20 == 8;
    return plan;
}

std::string prompt_for(std::string_view program, int id) {
    return std::string(program) + " run " + std::to_string(id);
}

std::optional<int> run_id_in(std::string_view prompt, std::string_view program) noexcept {
    const std::string prefix = std::string(program) + " run ";
    if (!prompt.starts_with(prefix)) return std::nullopt;
    prompt.remove_prefix(prefix.size());
    int id = 0;
    const auto [end, ec] = std::from_chars(prompt.data(), prompt.data() + prompt.size(), id);
    if (ec != std::errc{} || end != prompt.data() + prompt.size()) return std::nullopt;
    return id;
}

std::string last_user_message(std::string_view request_body) {
    boost::system::error_code ec;
    const boost::json::value body = boost::json::parse(request_body, ec);
    if (ec || !body.is_object()) return {};
    const auto* messages = body.as_object().if_contains("messages");
    if (!messages || !messages->is_array()) return {};
    std::string last;
    for (const auto& message : messages->as_array()) {
        const auto* object = message.if_object();
        if (!object || !object->contains("role") || object->at("role") != "user") continue;
        if (const auto* content = object->if_contains("content"); content && content->is_string())
            last = content->as_string();
    }
    return last;
}

std::string expected_text(const run_plan& plan) {
    const int id = plan.id;
    std::string text = "Answer to run " + std::to_string(id) + ":";
    // 6 to 22 words, some with a quote, a backslash, a newline or non-ASCII text, so that the
    // deltas carry JSON escapes and multi-byte sequences at varying offsets.
    const int words = 6 + id % 17;
    for (int w = 0; w < words; ++w) {
        text += ' ';
        switch ((id + w) % 7) {
        case 0:
            text += "caf\xC3\xA9";
            break;
        case 1:
            text += "\"quoted\"";
            break;
        case 2:
            text += "back\\slash";
            break;
        case 3:
            text += "line\nbreak";
            break;
        case 4:
            text += "\xE2\x98\x95";
            break; // a coffee cup, 3 bytes
        default:
            text += "word" + std::to_string((id % 1000 * 31 + w) % 1000);
        }
    }
    return text;
}

load_answer expected_answer(int id) {
    return {.run = id,
            .text = expected_text(
                {.id = id, .kind = fault::none, .typed = false, .rate_limited_once = false})};
}

scripted_reply reply_for(const run_plan& plan, int attempt, std::chrono::milliseconds chunk_delay) {
    const std::string run = "run " + std::to_string(plan.id);
    auto streamed = [&](std::string_view content, std::string_view finish_reason = "stop") {
        scripted_reply reply = scripted_reply::stream(content, delta_size, finish_reason);
        reply.chunk_delay = chunk_delay;
        return reply;
    };
    switch (plan.kind) {
    case fault::none:
        if (plan.rate_limited_once && attempt == 0)
            return scripted_reply::error(429, "requests", "Rate limit reached for " + run,
                                         "rate_limit_exceeded")
                .with_header("retry-after-ms", "5");
        return streamed(content_of(plan));
    case fault::dropped:
        return streamed(content_of(plan)).drop_after(3);
    case fault::stalled:
        return streamed(content_of(plan)).stall_after(3);
    case fault::malformed_event:
        return scripted_reply::events({role_chunk, content_chunk(a_start(plan)),
                                       R"({"id":"chatcmpl-load","choices":[{"delta":{"content":)",
                                       "[DONE]"});
    case fault::rate_limited:
        return scripted_reply::error(429, "requests", "Rate limit reached for " + run,
                                     "rate_limit_exceeded")
            .with_header("retry-after-ms", "5");
    case fault::server_error:
        return scripted_reply::error(500, "server_error", "The server failed " + run);
    case fault::error_event:
        return scripted_reply::events({role_chunk, R"({"error":{"message":"overloaded during )" +
                                                       run +
                                                       R"(","type":"server_error","code":null}})"});
    case fault::incomplete:
        return scripted_reply::events({role_chunk, content_chunk(a_start(plan))});
    case fault::truncated: {
        const std::string whole = content_of(plan);
        std::size_t half = whole.size() / 2;
        while (half > 0 && (static_cast<unsigned char>(whole[half]) & 0xC0) == 0x80)
            --half; // not inside a UTF-8 sequence
        return streamed(std::string_view(whole).substr(0, half), "length");
    }
    }
    return scripted_reply::error(500, "server_error", "no plan for " + run);
}

std::string check_outcome(const run_plan& plan, std::exception_ptr failure, const std::string& text,
                          const std::optional<load_answer>& result) {
    const std::string run = "run " + std::to_string(plan.id);
    const std::string expected = content_of(plan);
    // What arrived before a fault mid-stream is the start of the answer: nothing lost or reordered.
    auto a_start_of_the_answer = [&]() -> std::string {
        if (text.empty() || !expected.starts_with(text))
            return "the text before the fault is not the answer's start";
        return {};
    };
    std::string wrong;
    switch (plan.kind) {
    case fault::none:
        if (failure) return "expected the answer, got " + describe(failure);
        if (text != expected) return "the text differs from the answer: " + text;
        if (plan.typed && result != expected_answer(plan.id))
            return "the typed result differs from the answer";
        return {};
    case fault::dropped:
        wrong = expect_error<forma::transport_error>(
            failure, "transport_error(closed) after the response began", [](const auto& e) {
                return e.kind() == forma::transport_error_kind::closed && !e.before_response();
            });
        return wrong.empty() ? a_start_of_the_answer() : wrong;
    case fault::stalled:
        wrong = expect_error<forma::transport_error>(
            failure, "transport_error(timeout)",
            [](const auto& e) { return e.kind() == forma::transport_error_kind::timeout; });
        // Under load the idle timeout may expire before the first chunks arrive (then the run is
        // retried once).
        return wrong.empty() && !text.empty() ? a_start_of_the_answer() : wrong;
    case fault::malformed_event:
        return expect_error<forma::json_error>(failure, "json_error",
                                               [](const auto&) { return true; });
    case fault::rate_limited:
        return expect_error<forma::http_error>(
            failure, "http_error 429 rate_limit_exceeded", [&](const auto& e) {
                return e.status() == 429 && e.code() == "rate_limit_exceeded" &&
                       e.message().ends_with(run);
            });
    case fault::server_error:
        return expect_error<forma::http_error>(failure, "http_error 500", [&](const auto& e) {
            return e.status() == 500 && e.message().ends_with(run);
        });
    case fault::error_event:
        return expect_error<forma::http_error>(
            failure, "http_error with status 0 (in the stream)",
            [&](const auto& e) { return e.status() == 0 && e.message().ends_with(run); });
    case fault::incomplete:
        return expect_error<forma::stream_error>(
            failure, "stream_error(incomplete)",
            [](const auto& e) { return e.kind() == forma::stream_error_kind::incomplete; });
    case fault::truncated:
        return expect_error<forma::output_truncated_error>(failure, "output_truncated_error",
                                                           [](const auto&) { return true; });
    }
    return "no check for this fault";
}

} // namespace load
