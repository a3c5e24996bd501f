#pragma once

#include <forma/model/continuation_token.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace forma::openai {

/** Where a Responses API run stands: the response's id and, for a stream, the
    sequence number of the last event handed out. responses_client issues it as
    the continuation_token `{"kind": "openai.responses", "response_id": ...,
    "sequence_number": ...}`, which any responses_client (another process, another
    server instance) can take back to poll or resume the run.
*/
struct responses_token {
    std::string response_id;
    /// The last event delivered; a resumed stream starts after it. None: from the start.
    std::optional<std::int64_t> sequence_number{};

    continuation_token to_continuation_token() const;

    /// Whether `id` can be a response id in a token: 1 to 256 letters, digits, '_' and '-'
    /// (it goes into request paths as it is).
    static bool valid_id(std::string_view id) noexcept;

    /** Reads a token responses_client issued.
        @throws error naming what is wrong when `token` is not one (another
                provider's token, a corrupted one).
    */
    static responses_token from(const continuation_token& token);

    friend bool operator==(const responses_token&, const responses_token&) = default;
};

} // namespace forma::openai
