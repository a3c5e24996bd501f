#pragma once
// forma's Redis client and what is built on it for many server instances: shared sessions
// a shared response cache and a shared rate limit.

#include <forma/redis/client.hpp>
#include <forma/redis/client_options.hpp>
#include <forma/redis/command.hpp>
#include <forma/redis/rate_limit_store.hpp>
#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/response_cache.hpp>
#include <forma/redis/script.hpp>
#include <forma/redis/session_store.hpp>
#include <forma/redis/task_store.hpp>
