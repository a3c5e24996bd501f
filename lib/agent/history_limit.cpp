#include <forma/agent/history_limit.hpp>

#include <algorithm>

namespace forma {

namespace {

bool calls_functions(const chat_message& m) {
    return std::any_of(m.contents.begin(), m.contents.end(),
                       [](const content& c) { return std::holds_alternative<function_call_content>(c); });
}

} // namespace

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
