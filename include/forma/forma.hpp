#pragma once

/// Everything forma offers, for users who prefer one include.
#include <forma/a2a.hpp>
#include <forma/agent.hpp>
#include <forma/anthropic.hpp>
#include <forma/chat.hpp>
#include <forma/error.hpp>
#include <forma/json.hpp>
#include <forma/mcp.hpp>
#include <forma/middleware.hpp>
#include <forma/model.hpp>
#include <forma/openai.hpp>
#include <forma/orchestration.hpp>
#include <forma/serving.hpp>
#include <forma/redis.hpp>
#include <forma/registered_secret.hpp>
#include <forma/telemetry.hpp>
#include <forma/tools.hpp>
