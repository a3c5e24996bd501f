#include <forma/model/answer_error.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/refusal_error.hpp>
#include <forma/model/typed_agent_response.hpp>
#include <forma/registered_secret.hpp>

namespace forma {

refusal_error::refusal_error(std::string refusal)
    : error("the model refused to answer: " + refusal), refusal_(redact_secrets(refusal)) {}
refusal_error::~refusal_error() = default;

output_truncated_error::output_truncated_error(std::string partial_text)
    : error("the answer was cut by the output token limit (finish reason \"length\") after " +
            std::to_string(partial_text.size()) + " bytes; raise max_output_tokens or ask for less"),
      partial_text_(redact_secrets(partial_text)) {}
output_truncated_error::~output_truncated_error() = default;

const error& answer_error::base() const noexcept {
    return std::visit([](const auto& e) -> const error& { return e; }, error_);
}

void answer_error::rethrow() const {
    if (const auto* e = std::get_if<json_error>(&error_)) throw *e;
    if (const auto* e = std::get_if<refusal_error>(&error_)) throw *e;
    throw std::get<output_truncated_error>(error_);
}

void throw_exception_from_error(const answer_error& e, const boost::source_location&) { e.rethrow(); }

namespace model_detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

const refusal_content* find_refusal(const chat_message& message) {
    for (const auto& c : message.contents)
        if (const auto* refusal = std::get_if<refusal_content>(&c)) return refusal;
    return nullptr;
}

// The single text content of a message, or null when it has several (then text() joins them).
const std::string* only_text(const chat_message& message) {
    const std::string* found = nullptr;
    for (const auto& c : message.contents)
        if (const auto* text = std::get_if<text_content>(&c)) {
            if (found) return nullptr;
            found = &text->text;
        }
    return found;
}

} // namespace

std::optional<answer_error> structured_output_text(const agent_response<>& response, std::string_view& text,
                                                   std::string& storage) {
    const chat_message* answer = nullptr;
    for (auto it = response.messages.rbegin(); it != response.messages.rend() && !answer; ++it) {
        if (it->role != chat_role::assistant()) continue;
        if (const auto* refusal = find_refusal(*it)) return refusal_error(refusal->refusal);
        for (const auto& c : it->contents)
            if (const auto* t = std::get_if<text_content>(&c); t && !t->text.empty()) answer = &*it;
    }
    if (response.finish_reason && *response.finish_reason == finish_reason::length())
        return output_truncated_error(answer ? answer->text() : std::string());
    if (!answer) return json_error("", "the response has no assistant text to read a structured answer from");
    // Usually one text content: read it in place; several are joined into storage.
    if (const std::string* single = only_text(*answer)) {
        text = *single;
    } else {
        storage = answer->text();
        text = storage;
    }
    if (trimmed(text) == "null") return json_error("", "the answer is null, not a value of the requested type");
    return std::nullopt;
}

} // namespace model_detail
} // namespace forma
