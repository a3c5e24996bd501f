#pragma once

/// The vocabulary every agent speaks: contents, messages, responses, updates,
/// merging a stream, response formats.
#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/agent_response_update.hpp>
#include <forma/model/answer_error.hpp>
#include <forma/model/awaits_input.hpp>
#include <forma/model/chat_message.hpp>
#include <forma/model/chat_role.hpp>
#include <forma/model/content.hpp>
#include <forma/model/continuation_token.hpp>
#include <forma/model/finish_reason.hpp>
#include <forma/model/output_truncated_error.hpp>
#include <forma/model/rate_limits.hpp>
#include <forma/model/refusal_error.hpp>
#include <forma/model/response_format.hpp>
#include <forma/model/typed_agent_response.hpp>
#include <forma/model/usage_details.hpp>
