#pragma once

#include <forma/json/json_error.hpp>
#include <forma/model/usage_details.hpp>

#include <boost/json/conversion.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace forma {

/** What every content kind carries besides its own fields.

    Kept so that nothing a provider sends is lost, even where forma has no
    member for it.
*/
struct content_metadata {
    /// The provider's own JSON for this content, or null.
    boost::json::value raw_representation;
    /// Provider fields forma has no member for, by name.
    boost::json::object additional_properties;

    friend bool operator==(const content_metadata&, const content_metadata&) = default;
};

/// Primary output: text of the answer. JSON type "text".
struct text_content : content_metadata {
    text_content() = default;
    explicit text_content(std::string text) : text(std::move(text)) {}

    std::string text;

    friend bool operator==(const text_content&, const text_content&) = default;
};

/// Secondary output: the model's reasoning, never part of `text()`. JSON type "reasoning".
struct text_reasoning_content : content_metadata {
    text_reasoning_content() = default;
    explicit text_reasoning_content(std::string text,
                                    std::optional<std::string> protected_data = std::nullopt)
        : text(std::move(text)), protected_data(std::move(protected_data)) {}

    /// Readable reasoning; may be empty when only protected data was sent.
    std::string text;
    /// Reasoning the provider keeps opaque (encrypted, signed) and wants back
    /// verbatim in the next request.
    std::optional<std::string> protected_data;

    friend bool operator==(const text_reasoning_content&, const text_reasoning_content&) = default;
};

/// Primary output: bytes with a media type (an image, audio). JSON type "data",
/// the bytes as standard base64.
struct data_content : content_metadata {
    data_content() = default;
    data_content(std::vector<std::byte> data, std::string media_type, std::string name = {})
        : data(std::move(data)), media_type(std::move(media_type)), name(std::move(name)) {}

    /// Decodes standard base64 (RFC 4648 section 4, padding optional).
    /// @throws error if `base64` is not valid base64.
    static data_content from_base64(std::string_view base64, std::string media_type,
                                    std::string name = {});

    /// The bytes as standard base64 with padding.
    std::string base64() const;
    /// A `data:` URI (RFC 2397), as providers accept for inline images.
    std::string data_uri() const;

    std::vector<std::byte> data;
    /// e.g. "image/png"; may be empty when unknown.
    std::string media_type;
    /// A file name, when there is one.
    std::string name;

    friend bool operator==(const data_content&, const data_content&) = default;
};

/// Primary output: a link to content held elsewhere. JSON type "uri".
struct uri_content : content_metadata {
    uri_content() = default;
    uri_content(std::string uri, std::string media_type)
        : uri(std::move(uri)), media_type(std::move(media_type)) {}

    std::string uri;
    std::string media_type;

    friend bool operator==(const uri_content&, const uri_content&) = default;
};

/// Secondary output: the model asks for a tool call. JSON type "function_call".
struct function_call_content : content_metadata {
    function_call_content() = default;
    function_call_content(std::string call_id, std::string name,
                          boost::json::object arguments = {})
        : call_id(std::move(call_id)), name(std::move(name)), arguments(std::move(arguments)) {}

    /// Pairs the call with its function_result_content.
    std::string call_id;
    std::string name;
    boost::json::object arguments;

    friend bool operator==(const function_call_content&, const function_call_content&) = default;
};

/// Secondary output: what a tool call returned. JSON type "function_result".
struct function_result_content : content_metadata {
    function_result_content() = default;
    function_result_content(std::string call_id, boost::json::value result,
                            std::optional<std::string> error = std::nullopt)
        : call_id(std::move(call_id)), result(std::move(result)), error(std::move(error)) {}

    std::string call_id;
    boost::json::value result;
    /// Set when the call failed: what went wrong, for the model to read.
    std::optional<std::string> error;

    friend bool operator==(const function_result_content&,
                           const function_result_content&) = default;
};

/** The caller's answer to a function_approval_request_content: approve or reject
    the call it holds. JSON type "function_approval_response". Made with
    function_approval_request_content::approve() or reject(), and sent in a user
    message of the next run on the same session.
*/
struct function_approval_response_content : content_metadata {
    function_approval_response_content() = default;
    function_approval_response_content(std::string id, bool approved, function_call_content call,
                                       std::string reason = {})
        : id(std::move(id)), approved(approved), call(std::move(call)), reason(std::move(reason)) {}

    /// The id of the request this answers.
    std::string id;
    bool approved = false;
    /// The call that was approved or rejected.
    function_call_content call;
    /// Why the call was rejected, for the model to read; may be empty.
    std::string reason;

    friend bool operator==(const function_approval_response_content&,
                           const function_approval_response_content&) = default;
};

/** Primary output: a tool call waits for the caller's approval (the records'
    "structured confirmation request"). JSON type "function_approval_request".

    A run whose model calls a tool that requires approval ends with one request
    per call of that turn, and runs none of them; the caller answers each in its
    next run on the same session:

        std::vector<forma::content> answers;
        for (const auto& request : response.approval_requests())
            answers.push_back(request.approve()); // or request.reject("not today")
        co_await agent.run(forma::chat_message(forma::chat_role::user(), std::move(answers)), session);
*/
struct function_approval_request_content : content_metadata {
    function_approval_request_content() = default;
    function_approval_request_content(std::string id, function_call_content call)
        : id(std::move(id)), call(std::move(call)) {}

    /// The answer that lets the call run.
    function_approval_response_content approve() const { return {id, true, call}; }
    /// The answer that refuses the call; the model reads "rejected: <reason>".
    function_approval_response_content reject(std::string reason = {}) const {
        return {id, false, call, std::move(reason)};
    }

    /// Pairs the request with its response: the call's id when forma makes the request.
    std::string id;
    /// The call waiting for approval.
    function_call_content call;

    friend bool operator==(const function_approval_request_content&,
                           const function_approval_request_content&) = default;
};

/// Secondary output: token counts, as streams report them. JSON type "usage".
/// Merging updates sums these into the response's usage.
struct usage_content : content_metadata {
    usage_content() = default;
    explicit usage_content(usage_details details) : details(std::move(details)) {}

    usage_details details;

    friend bool operator==(const usage_content&, const usage_content&) = default;
};

/// Secondary output: an error the provider reported inside a response. JSON type "error".
struct error_content : content_metadata {
    error_content() = default;
    explicit error_content(std::string message, std::string code = {}, std::string details = {})
        : message(std::move(message)), code(std::move(code)), details(std::move(details)) {}

    std::string message;
    /// The provider's error code, e.g. "rate_limit_exceeded"; may be empty.
    std::string code;
    std::string details;

    friend bool operator==(const error_content&, const error_content&) = default;
};

/** The model declined to answer (OpenAI's `refusal`). JSON type "refusal".
    Kept apart from text: it is never part of `text()`, and reading a structured
    answer from it gives a refusal_error.
*/
struct refusal_content : content_metadata {
    refusal_content() = default;
    explicit refusal_content(std::string refusal) : refusal(std::move(refusal)) {}

    std::string refusal;

    friend bool operator==(const refusal_content&, const refusal_content&) = default;
};

/// One way an answer breaks the format it was asked for.
struct output_error {
    /// JSON Pointer to the offending value in the answer ("" is the whole answer).
    std::string path;
    /// What is wrong and what was expected: `expected integer, got string "x"`.
    std::string reason;

    friend bool operator==(const output_error&, const output_error&) = default;
};

/** Secondary output: what is wrong with the model's previous answer (the assistant
    message before it), sent back to the model in a user message so that it can
    correct itself (a validation retry: see `max_output_retries`). The model is sent
    correction_text(): every error with its JSON Pointer, and a request to answer
    again. JSON type "output_errors".
*/
struct output_errors_content : content_metadata {
    output_errors_content() = default;
    explicit output_errors_content(std::vector<output_error> errors) : errors(std::move(errors)) {}

    std::vector<output_error> errors;

    friend bool operator==(const output_errors_content&, const output_errors_content&) = default;
};

/// The text the model is sent for `c`: the errors, one per line with its JSON Pointer,
/// and a request for a corrected answer.
std::string correction_text(const output_errors_content& c);

/** Secondary output: control of the conversation moved from one agent to another (a
    handoff orchestration's participant called its `handoff_to_<name>` tool). JSON type
    "handoff". It stays in the conversation for the caller and is never sent to a model.
*/
struct handoff_content : content_metadata {
    handoff_content() = default;
    handoff_content(std::string from, std::string to, std::string reason = {})
        : from(std::move(from)), to(std::move(to)), reason(std::move(reason)) {}

    /// The name of the agent that handed off.
    std::string from;
    /// The name of the agent that has the conversation now.
    std::string to;
    /// Why, as the agent said it; may be empty.
    std::string reason;

    friend bool operator==(const handoff_content&, const handoff_content&) = default;
};

/** A kind of content forma does not know, kept so that it survives storage
    and can be handed back to the provider.

    JSON: `{"type": kind, ...json}`. `json` holds the other members; it may not
    use the three names every content has ("type", "raw_representation",
    "additional_properties"), and `kind` may not be one forma knows.
*/
struct unknown_content : content_metadata {
    unknown_content() = default;
    unknown_content(std::string kind, boost::json::object json)
        : kind(std::move(kind)), json(std::move(json)) {}

    /// The provider's name for the kind, e.g. "image_generation_call".
    std::string kind;
    boost::json::object json;

    friend bool operator==(const unknown_content&, const unknown_content&) = default;
};

/// Every kind of content a message or update holds: one closed set.
using content = std::variant<text_content, text_reasoning_content, data_content, uri_content,
                             function_call_content, function_result_content, usage_content,
                             error_content, refusal_content, function_approval_request_content,
                             function_approval_response_content, output_errors_content, handoff_content,
                             unknown_content>;

/// The JSON "type" of `c`: "text", "reasoning", ..., or an unknown kind's own name.
std::string_view content_type(const content& c) noexcept;

/// The metadata every kind carries.
inline const content_metadata& metadata_of(const content& c) noexcept {
    return std::visit([](const auto& k) -> const content_metadata& { return k; }, c);
}
inline content_metadata& metadata_of(content& c) noexcept {
    return std::visit([](auto& k) -> content_metadata& { return k; }, c);
}

/// Writes `{"type": ..., <fields>, "raw_representation"?, "additional_properties"?}`;
/// members that are empty or null are left out.
/// @throws json_error for an unknown_content whose kind or members collide with forma's.
void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const content& c);
/// Reads any kind, by its "type"; a type forma does not know gives unknown_content.
/// @throws json_error naming the offending member if `json` is not a content object.
content tag_invoke(boost::json::value_to_tag<content>, const boost::json::value& json);

// Each kind on its own, written exactly as inside `content`. Reading one checks its "type".
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const text_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const text_reasoning_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const data_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const uri_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const function_call_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const function_result_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const usage_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const error_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const refusal_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const function_approval_request_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const function_approval_response_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const output_errors_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const handoff_content&);
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const unknown_content&);
text_content tag_invoke(boost::json::value_to_tag<text_content>, const boost::json::value&);
text_reasoning_content tag_invoke(boost::json::value_to_tag<text_reasoning_content>,
                                  const boost::json::value&);
data_content tag_invoke(boost::json::value_to_tag<data_content>, const boost::json::value&);
uri_content tag_invoke(boost::json::value_to_tag<uri_content>, const boost::json::value&);
function_call_content tag_invoke(boost::json::value_to_tag<function_call_content>,
                                 const boost::json::value&);
function_result_content tag_invoke(boost::json::value_to_tag<function_result_content>,
                                   const boost::json::value&);
usage_content tag_invoke(boost::json::value_to_tag<usage_content>, const boost::json::value&);
error_content tag_invoke(boost::json::value_to_tag<error_content>, const boost::json::value&);
refusal_content tag_invoke(boost::json::value_to_tag<refusal_content>, const boost::json::value&);
function_approval_request_content tag_invoke(boost::json::value_to_tag<function_approval_request_content>,
                                             const boost::json::value&);
function_approval_response_content tag_invoke(boost::json::value_to_tag<function_approval_response_content>,
                                              const boost::json::value&);
output_errors_content tag_invoke(boost::json::value_to_tag<output_errors_content>, const boost::json::value&);
handoff_content tag_invoke(boost::json::value_to_tag<handoff_content>, const boost::json::value&);
/// `{"path": ..., "reason": ...}`.
void tag_invoke(boost::json::value_from_tag, boost::json::value&, const output_error&);
output_error tag_invoke(boost::json::value_to_tag<output_error>, const boost::json::value&);
/// Reads any content object as unknown, whatever its "type".
unknown_content tag_invoke(boost::json::value_to_tag<unknown_content>, const boost::json::value&);

} // namespace forma
