#include <forma/chat/token_estimator.hpp>

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

} // namespace forma
