#include <forma/agent/history_limit.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>

namespace forma {

namespace {

std::size_t json_size(const boost::json::value& v) { return v.is_string() ? v.get_string().size() : boost::json::serialize(v).size(); }

std::size_t content_bytes(const content& c) {
    return std::visit(
        [](const auto& part) -> std::size_t {
            using T = std::decay_t<decltype(part)>;
            if constexpr (std::is_same_v<T, text_content> || std::is_same_v<T, text_reasoning_content>) {
                return part.text.size();
            } else if constexpr (std::is_same_v<T, data_content>) {
                return part.data.size();
            } else if constexpr (std::is_same_v<T, uri_content>) {
                return part.uri.size();
            } else if constexpr (std::is_same_v<T, function_call_content>) {
                return part.name.size() + part.call_id.size() + boost::json::serialize(part.arguments).size();
            } else if constexpr (std::is_same_v<T, function_result_content>) {
                return part.call_id.size() + json_size(part.result) + (part.error ? part.error->size() : 0);
            } else if constexpr (std::is_same_v<T, function_approval_request_content> ||
                                 std::is_same_v<T, function_approval_response_content>) {
                return part.call.name.size() + boost::json::serialize(part.call.arguments).size();
            } else if constexpr (std::is_same_v<T, refusal_content>) {
                return part.refusal.size();
            } else if constexpr (std::is_same_v<T, error_content>) {
                return part.message.size();
            } else {
                return 0; // usage, output errors and unknown contents are not sent as text
            }
        },
        c);
}

std::size_t message_bytes(const chat_message& m) {
    std::size_t bytes = 0;
    for (const content& c : m.contents) bytes += content_bytes(c);
    return bytes;
}

bool calls_functions(const chat_message& m) {
    return std::any_of(m.contents.begin(), m.contents.end(),
                       [](const content& c) { return std::holds_alternative<function_call_content>(c); });
}

} // namespace

std::size_t token_estimator::estimate(const chat_message& message) const {
    return per_message_overhead + static_cast<std::size_t>(std::ceil(static_cast<double>(message_bytes(message)) / bytes_per_token_));
}

std::size_t token_estimator::estimate(const std::vector<chat_message>& messages) const {
    std::size_t tokens = 0;
    for (const chat_message& m : messages) tokens += estimate(m);
    return tokens;
}

void token_estimator::calibrate(const std::vector<chat_message>& sent, std::int64_t input_tokens) {
    std::size_t bytes = 0;
    for (const chat_message& m : sent) bytes += message_bytes(m);
    const double overhead = static_cast<double>(per_message_overhead * sent.size());
    const double content_tokens = static_cast<double>(input_tokens) - overhead;
    if (bytes < 256 || content_tokens < 16) return; // too little to learn from
    const double observed = std::clamp(static_cast<double>(bytes) / content_tokens, 1.0, 16.0);
    bytes_per_token_ = 0.7 * bytes_per_token_ + 0.3 * observed;
}

std::vector<chat_message> limit_history(const std::vector<chat_message>& history, const history_limit& limit,
                                        const token_estimator& estimator, std::size_t keep_last) {
    const std::size_t n = history.size();
    if (limit.max_messages == 0 && limit.max_tokens == 0) return history;
    static const chat_role system = chat_role::system();
    static const chat_role tool = chat_role::tool();
    const std::size_t first_kept_anyway = keep_last >= n ? 0 : n - keep_last;

    // Units, newest first: a message, or a function-calling message with the tool messages after it.
    std::vector<bool> keep(n, false);
    std::size_t messages = 0, tokens = 0;
    std::size_t end = n;
    bool full = false;
    while (end > 0) {
        std::size_t start = end - 1;
        if (history[start].role == system) {
            keep[start] = true;
            end = start;
            continue;
        }
        // A tool message belongs to the call before it: walk back to that call.
        std::size_t call = start;
        while (call > 0 && history[call].role == tool) --call;
        if (history[start].role == tool && calls_functions(history[call])) start = call;
        std::size_t unit_messages = 0, unit_tokens = 0;
        for (std::size_t i = start; i < end; ++i) {
            if (history[i].role == system) continue;
            ++unit_messages;
            unit_tokens += estimator.estimate(history[i]);
        }
        const bool protected_unit = end > first_kept_anyway;
        const bool fits = (limit.max_messages == 0 || messages + unit_messages <= limit.max_messages) &&
                          (limit.max_tokens == 0 || tokens + unit_tokens <= limit.max_tokens);
        if (protected_unit || (!full && fits)) {
            for (std::size_t i = start; i < end; ++i) keep[i] = true;
            messages += unit_messages;
            tokens += unit_tokens;
        } else {
            full = true; // older messages stay out too: the history sent has no gaps
        }
        end = start;
    }
    // A tool message whose call was left out (a history trimmed before) would be refused.
    std::vector<chat_message> kept;
    kept.reserve(n);
    bool call_seen = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (!keep[i]) continue;
        if (history[i].role == tool && !call_seen) continue;
        if (history[i].role != system) call_seen = true;
        kept.push_back(history[i]);
    }
    return kept;
}

} // namespace forma
