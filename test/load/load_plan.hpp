#pragma once
// What each run of the load and soak programs asks, what the server answers it, and how the
// run must end. Both sides derive everything from the run's id, which travels in the prompt.

#include <forma/testing/model_server.hpp>

#include <boost/describe/class.hpp>

#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace load {

/// The answer a typed run (run_streaming<load_answer>) asks for.
struct load_answer {
    int run = 0;
    std::string text;
    bool operator==(const load_answer&) const = default;
};
BOOST_DESCRIBE_STRUCT(load_answer, (), (run, text))

/// How the server spoils a run, and the error the run must end with.
enum class fault {
    none,            // the whole answer
    dropped,         // connection closed mid-stream: transport_error closed
    stalled,         // no bytes after the first chunks: transport_error timeout (idle)
    malformed_event, // an event that is not JSON: json_error
    rate_limited,    // 429 on every attempt: http_error 429 once retries are spent
    server_error,    // 500 on every attempt: http_error 500 once retries are spent
    error_event,     // an error object inside the stream: http_error with status 0
    incomplete,      // the stream ends without finish reason or [DONE]: stream_error incomplete
    truncated,       // finish_reason "length" in a typed run: output_truncated_error
};
inline constexpr int fault_kinds = 8; // the kinds after none

std::string_view name_of(fault kind) noexcept;

struct run_plan {
    int id = 0;
    fault kind = fault::none;
    /// run_streaming<load_answer> (the answer is JSON), else plain run_streaming.
    bool typed = false;
    /// The first attempt gets a 429 with a short retry-after-ms; the retry gets the answer.
    bool rate_limited_once = false;
};

/** The load program's plan: every tenth run (id % 10 == 7) is faulted, the kinds in turn
    (all of them typed runs: odd ids are typed); of the healthy runs, id % 20 of 3 or 8 are
    rate limited once before their answer.
*/
run_plan load_plan_for(int id) noexcept;

/// The prompt of run `id` ("<program> run <id>") and the id read back from it.
std::string prompt_for(std::string_view program, int id);
std::optional<int> run_id_in(std::string_view prompt, std::string_view program) noexcept;

/// The last user message of a Chat Completions request body ("" when there is none).
std::string last_user_message(std::string_view request_body);

/// The text a healthy run must stream, exactly: words, escapes and non-ASCII that vary by id.
std::string expected_text(const run_plan& plan);
load_answer expected_answer(int id);

/// The server's reply to attempt `attempt` (0 for the first) of the run.
forma::testing::scripted_reply reply_for(const run_plan& plan, int attempt,
                                         std::chrono::milliseconds chunk_delay);

/// "" when the run ended as planned, else what went wrong; `result` is a typed run's final value.
std::string check_outcome(const run_plan& plan, std::exception_ptr failure, const std::string& text,
                          const std::optional<load_answer>& result);

} // namespace load
