#pragma once
// forma's Redis client and what is built on it for many server instances: shared sessions
// and a shared response cache (the shared rate limit is concurrency_limiter_options::shared_redis).

#include <forma/redis/client.hpp>
#include <forma/redis/client_options.hpp>
#include <forma/redis/command.hpp>
#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/response_cache.hpp>
#include <forma/redis/script.hpp>
#include <forma/redis/session_store.hpp>
