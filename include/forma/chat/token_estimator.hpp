#pragma once

#include <forma/model/chat_message.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace forma {

/** Estimates the tokens of messages from their size: bytes of text (and of function
    arguments and results, as JSON) divided by bytes_per_token(), plus a few tokens of
    overhead per message. Starts at 4 bytes per token, the usual figure for English with
    OpenAI's tokenizers, and learns the model's ratio from the input token counts that
    responses report (calibrate).
*/
class token_estimator {
public:
    /// Tokens a message adds to a request beyond its contents (role, separators).
    static constexpr std::size_t per_message_overhead = 4;

    std::size_t estimate(const chat_message& message) const;
    std::size_t estimate(const std::vector<chat_message>& messages) const;

    /** Learns from a response: `sent` was the request's messages and `input_tokens` what the
        server counted for it. The count also covers instructions and tool definitions,
        which makes the estimate err on the side of more tokens.
    */
    void calibrate(const std::vector<chat_message>& sent, std::int64_t input_tokens);

    double bytes_per_token() const noexcept { return bytes_per_token_; }

private:
    double bytes_per_token_ = 4.0;
};

} // namespace forma
