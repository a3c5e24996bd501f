#pragma once

#include <forma/testing/self_signed_certificate.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <limits>
#include <utility>
#include <vector>

namespace forma::testing {

/// How a scripted reply's body ends.
enum class reply_ending {
    /// The body ends properly; the connection stays open for the next request.
    complete,
    /// After the chunks, the server closes the connection without ending the body.
    drop,
    /// After the chunks, the server sends nothing more and keeps the connection
    /// open until the client leaves or the server stops.
    stall,
};

/// A tool call in a scripted reply. `arguments` is sent as it is: it need not be JSON (a fault to inject).
struct scripted_tool_call {
    std::string id;
    std::string name;
    std::string arguments;
};

/** One reply of the local model server, as it goes on the wire.

    A reply with `chunks` is streamed (`Transfer-Encoding: chunked`), one HTTP
    chunk per element, `chunk_delay` apart, or each after its own wait in
    `chunk_delays` (an empty element is skipped: a zero-size chunk would end the
    body); otherwise `body` is sent whole with a `Content-Length`. A
    `Content-Length`, `Transfer-Encoding` or `Connection` in `headers` replaces
    the one the server would add (a wrong length is a fault too; `Connection:
    close` closes after the reply). The factories build the usual replies; the
    members can then be changed to inject a fault.
*/
struct scripted_reply {
    /// 0 sends no response at all: with `stall`, a server that reads the request and never
    /// answers; otherwise the connection is closed without an answer.
    unsigned status = 200;
    std::string content_type = "application/json";
    /// Further headers, e.g. {"Retry-After", "1"}.
    std::vector<std::pair<std::string, std::string>> headers{};
    std::string body{};
    std::vector<std::string> chunks{};
    std::chrono::milliseconds chunk_delay{0};
    /// When not empty, the wait before each chunk (the first one's too; none past its end),
    /// in place of `chunk_delay`: a background response's events go out as they fall due.
    std::vector<std::chrono::milliseconds> chunk_delays{};
    /// When set, asked with a chunk's index before it goes, and every 20 ms while it waits:
    /// false ends the reply there, as `ending` says (a cancelled background run's stream stops so).
    std::function<bool(std::size_t)> chunk_gate{};
    reply_ending ending = reply_ending::complete;

    /// `body` as it is (it need not be JSON: invalid JSON is a fault to inject).
    static scripted_reply json(std::string body, unsigned status = 200);
    /// A `chat.completion` whose one choice has `content` and `finish_reason`.
    static scripted_reply completion(std::string_view content, std::string_view finish_reason = "stop");
    /// An OpenAI-style error body: {"error": {"message", "type", "param": null, "code"}}.
    static scripted_reply error(unsigned status, std::string_view type, std::string_view message,
                                std::string_view code = {});
    /// A `text/event-stream` whose chunks are `events` as `data:` lines, each its own HTTP chunk,
    /// without `[DONE]` (add it as the last event when wanted).
    static scripted_reply events(const std::vector<std::string>& events);
    /** A streamed `chat.completion.chunk` answer: a role chunk, `content` in deltas of
        `delta_size` bytes (never cutting a UTF-8 sequence), a chunk with `finish_reason`,
        a usage-only chunk, and `data: [DONE]`.
    */
    static scripted_reply stream(std::string_view content, std::size_t delta_size = 8,
                                 std::string_view finish_reason = "stop");
    /** A `chat.completion` whose message calls `calls` (content null, finish reason
        "tool_calls"), with `content` as the message's text when not empty.
    */
    static scripted_reply tool_calls(const std::vector<scripted_tool_call>& calls, std::string_view content = {});
    /** `tool_calls` streamed as OpenAI streams calls: a role chunk (with `content` in
        deltas first, when not empty), then each call's index, id, type and name with empty
        arguments, then the arguments in pieces of `piece_size` bytes, the calls' pieces
        interleaved (index 0, 1, ..., 0, 1, ...), a chunk with finish reason "tool_calls",
        a usage-only chunk and `data: [DONE]`.
    */
    static scripted_reply stream_tool_calls(const std::vector<scripted_tool_call>& calls,
                                            std::size_t piece_size = 8, std::string_view content = {});

    // The Responses API (`POST /v1/responses`). Ids are "resp_scripted", "msg_scripted", "fc_scripted_<i>".

    /** A whole `response` object whose output is one assistant message with `text` (none when
        `text` is empty), at `status` ("completed", "incomplete" with incomplete_details
        max_output_tokens, "queued", "in_progress", "cancelled", or "failed" with a
        server_error whose message is `text` and no output). Usage counts the text's words.
    */
    static scripted_reply response_text(std::string_view text, std::string_view status = "completed");
    /** The events that stream a completed response answering `text`, numbered from 0:
        response.created, response.in_progress, response.output_item.added,
        response.content_part.added, response.output_text.delta in pieces of `delta_size`
        bytes (never cutting a UTF-8 sequence), response.output_text.done,
        response.content_part.done, response.output_item.done and response.completed; each
        `event: <type>` and `data: <json>`, its own HTTP chunk.
    */
    static scripted_reply response_stream(std::string_view text, std::size_t delta_size = 8);
    /// A whole completed `response` whose output is a `function_call` item per call (its `call_id` the call's id).
    static scripted_reply response_function_calls(const std::vector<scripted_tool_call>& calls);
    /** A `text/event-stream` of `events` as they are (unknown or malformed ones too), each with
        an `event:` line naming its JSON's `type` (none when it has none) and a `data:` line per
        line, each its own HTTP chunk.
    */
    static scripted_reply response_events(const std::vector<std::string>& events);

    scripted_reply& with_header(std::string name, std::string value);
    /** Keeps the first `chunks` chunks and closes the connection after them.
        For a reply sent whole, keeps the first `chunks` bytes of `body` while a
        `Content-Length` header still announces all of it.
    */
    scripted_reply& drop_after(std::size_t chunks);
    /// Keeps the first `chunks` chunks (bytes of a whole body, as drop_after) and then stalls.
    scripted_reply& stall_after(std::size_t chunks);
};

/// A request the server received.
struct received_request {
    std::string method;
    std::string target;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;

    /// The value of header `name` (case-insensitive), or "" when absent.
    std::string_view header(std::string_view name) const noexcept;
};

/// A fault in the tool calls the server generates.
enum class tool_call_fault {
    none,
    /// The arguments are cut short: not valid JSON.
    malformed_arguments,
    /// The call names a tool the request did not offer ("no_such_tool").
    unknown_tool,
};

/// Which TLS versions the server accepts.
enum class tls_versions { tls12_and_13, tls12_only, tls13_only };

/** A mistake real models make in structured answers, injected into generated `json_schema`
    answers to test validation retries (see model_server_options::answer_fault).
*/
enum class answer_fault {
    none,
    /// The first member that is a number, string or boolean holds another type: a number as
    /// text ("35 years"), a string as a number, a boolean as "yes".
    wrong_type,
    /// The first required member is left out.
    missing_member,
    /// The first string member is empty: it breaks a `minLength`, which strict mode only describes.
    short_string,
    /// The JSON breaks off halfway.
    cut_json,
    /// The JSON comes between sentences of prose.
    prose_around,
};

struct model_server_options {
    /// HTTPS (with `certificate`, or one made at start) or plain HTTP.
    bool tls = true;
    tls_versions versions = tls_versions::tls12_and_13;
    /// The server's certificate; when empty, one for localhost, 127.0.0.1 and ::1 is made.
    std::optional<certificate_pem> certificate{};
    /// The address to listen on; port 0 picks a free port.
    std::string address = "127.0.0.1";
    unsigned short port = 0;
    /// The model name in replies.
    std::string model = "forma-local";
    /// Seeds schema-driven answers (make_instance); the n-th request uses seed + n.
    std::uint64_t seed = 0;
    /// Bytes of content per streamed delta in generated answers.
    std::size_t delta_size = 8;
    /// The wait between streamed chunks of generated answers.
    std::chrono::milliseconds chunk_delay{0};
    /// Requests larger than this are answered 413.
    std::size_t max_request_size = 4 * 1024 * 1024;
    /// Tools a generated turn calls: the first this many offered (one when the request says
    /// `"parallel_tool_calls": false`).
    std::size_t tool_calls_per_turn = 1;
    /// A fault in every generated tool call.
    tool_call_fault tool_fault = tool_call_fault::none;
    /// A fault in generated `json_schema` answers (both APIs), as a sloppy model makes it.
    forma::testing::answer_fault answer_fault = forma::testing::answer_fault::none;
    /// The share of answers that carry `answer_fault`, drawn for each request from its seed
    /// (seed + request index): 1 is every answer, 0.5 about every other one.
    double answer_fault_rate = 1.0;
    /** Answers to a request that holds this many of forma's corrections (validation retries)
        or more carry no fault: 1 is a model that obeys on its second try. A correction is a
        user message that starts as forma::correction_text() does; the server reads the
        question from the other user messages, as a model would read it again.
    */
    std::size_t answer_fault_attempts = std::numeric_limits<std::size_t>::max();
    /** false: a server with function calling but no structured outputs, as many
        OpenAI-compatible servers are; a `json_schema` response format gets a 400.
    */
    bool json_schema_supported = true;
    /// When not empty, each generated Responses answer starts with a `reasoning` item whose
    /// summary is this text (its words are the usage's reasoning tokens).
    std::string reasoning_summary{};
    /// How long a background response runs from creation to its last event (see model_server).
    std::chrono::milliseconds background_duration{30};
    /// A fault: a generated Responses stream (created or resumed) with more events than this
    /// closes the connection after this many, without ending the body. A background run
    /// carries on and stays resumable.
    std::optional<std::size_t> drop_stream_after_events{};
};

/** A local OpenAI-compatible model server over HTTPS (or HTTP), for tests, examples and
    `tools/forma-mock-llm`: Chat Completions (`POST /v1/chat/completions`), the Responses
    API (`POST /v1/responses`, `GET /v1/responses/{id}`, `POST /v1/responses/{id}/cancel`) and
    Anthropic's Messages API (`POST /v1/messages`, `POST /v1/messages/count_tokens`),
    streaming and not.

    Each request gets, in this order: the handler's reply (when a handler is set
    and returns one), else the next queued scripted reply, else a generated
    answer. A generated answer is schema-driven for a `json_schema` response
    format (make_instance of the schema, strings and numbers from the user
    messages' phrases and numbers), a JSON object `{"answer": ...}` for `json_object`, and otherwise
    the text "You said: " followed by the last user message, cut at `max_completion_tokens` (or
    `max_tokens`) words with finish reason "length". It is streamed
    when the request says `"stream": true` (with a usage chunk when
    `stream_options.include_usage` is set), else sent whole. Usage counts words.

    Tools: when the request offers tools, its tool_choice is not "none" and its
    last message is not a tool result, the generated answer calls tools instead,
    with arguments made by make_instance from each tool's parameters schema (ids
    "call_<request>_<i>"): the tool tool_choice names, else the first
    `tool_calls_per_turn` tools offered. Streamed calls are split as
    stream_tool_calls splits them. `tool_fault` injects malformed arguments or an
    unknown tool name. After the tools' results, the answer is generated as above.
    A tool named "final_result" (forma::structured_output_mode::tool) is the answer:
    it is called, with a schema instance of its parameters (and `answer_fault`) as
    arguments, when tool_choice names it, no other tool is offered, or the other
    tools' results came; other tools are called first.

    Responses: a create body's `input` (a string, or items: messages of any role whose
    content is a string or input_text/output_text/input_image parts, function_call and
    function_call_output items; other items are ignored), `text.format`, function `tools`,
    `tool_choice` and `parallel_tool_calls` decide the answer as a chat request's do (a
    last function_call_output is a tool result). The Response ("resp_<request>") holds a
    `message` item ("msg_<request>"), or a `function_call` item per call ("fc_<request>_<i>",
    call ids "call_<request>_<i>"), after a `reasoning` item ("rs_<request>") when
    `reasoning_summary` is set (with `encrypted_content` "enc_<request>" when `include` asks
    for "reasoning.encrypted_content"); it echoes the request's settings. A text of more words
    than `max_output_tokens` is cut there and the Response is "incomplete". Streamed, its
    events are those scripted_reply::response_stream lists (a reasoning item's summary and
    a call's arguments stream as reasoning_summary_text and function_call_arguments deltas).
    Responses are stored unless `"store": false` (the last 10 000): GET retrieves one, GET
    with `?stream=true&starting_after=N` streams its events after sequence number N, and
    `previous_response_id` puts its input and output before a new input. A
    `"background": true` response (it must be stored) answers at once, "queued" (or
    streams its events as they fall due), and runs on the clock alone over
    `background_duration`: queued for the first tenth, then in progress, its later events
    spread evenly to the end, when it completes; GET shows it as it stands, with the items
    done so far. Cancel makes a queued or running background response "cancelled" from then
    on and returns it (again on a second cancel); its streams end after the events due
    before the cancel (no stream event tells a cancel: retrieve it). `drop_stream_after_events`
    cuts generated Responses streams short.

    Messages: the user turns' text blocks, `tools` (`input_schema`), `tool_choice` (`none`, a
    named `tool`, `disable_parallel_tool_use`) and `output_config.format` decide the answer as a
    chat request's do (a last user turn holding a `tool_result` is a tool result). The Message
    ("msg_local_<request>") holds a text block, or a tool_use block per call; a text of more
    words than `max_tokens` is cut there (stop reason `max_tokens`). Streamed: message_start, a
    ping, each block's start, deltas of `delta_size` bytes and stop, message_delta with the stop
    reason and usage, message_stop. count_tokens answers the prompt's words as `input_tokens`.
    Its errors (400 for a body without `messages` or a positive `max_tokens`) are in
    Anthropic's shape.

    The generator answers a path that is neither `.../chat/completions` nor a Responses
    path with a 404, a method the path does not take with a 405, an unknown response id
    (code "response_not_found") with a 404, and with a 400 a body that is not a JSON
    object with a `messages` array (`input`, for Responses), a schema make_instance cannot
    satisfy (the response format's, or the parameters of a tool it calls), a tool_choice
    naming a function the request does not offer, `background` without `store`, or a cancel
    of a finished response or one not in the background; each with an OpenAI-style error
    body. A handler's or queued reply answers any request as it is (a handler sees each
    request's method and target, query included). A request larger than
    `max_request_size` gets a 413 and is not recorded; the connection closes.

    All work runs on the executor given (no threads of its own). The server
    listens from construction; destroying it (or stop()) closes the listening
    socket and every connection. enqueue, set_handler and the observers may be
    called from any thread; stop() and the destructor from a thread that runs
    the executor, or while none does.
*/
class model_server {
public:
    using handler = std::function<std::optional<scripted_reply>(const received_request&)>;

    /// @throws boost::system::system_error when the address cannot be bound.
    model_server(boost::asio::any_io_executor executor, model_server_options options = {});
    ~model_server();

    model_server(const model_server&) = delete;
    model_server& operator=(const model_server&) = delete;

    unsigned short port() const noexcept;
    /// "https://127.0.0.1:<port>/v1" (http for a plain server; IPv6 addresses in brackets;
    /// the loopback address for a server listening on a wildcard address).
    std::string base_url() const;
    /// The certificate clients should trust (PEM); empty for a plain server.
    const std::string& certificate_pem() const noexcept;

    /// Queues a reply for a coming request.
    void enqueue(scripted_reply reply);
    /// Decides replies by request; a handler returning nullopt lets the queue or generator answer.
    void set_handler(handler h);

    /// Requests received so far, in arrival order (each recorded once its body is read).
    std::vector<received_request> requests() const;
    /// Forgets the requests received so far (a long-running server's record would only grow).
    void clear_requests();
    std::size_t connections_accepted() const noexcept;
    /// Connections open now.
    std::size_t open_connections() const noexcept;

    /// Stops listening and closes every connection; idempotent.
    void stop();

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::testing
