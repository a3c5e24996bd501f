#pragma once
// forma's Redis client and what is built on it: sessions shared by many server instances.

#include <forma/redis/client.hpp>
#include <forma/redis/client_options.hpp>
#include <forma/redis/command.hpp>
#include <forma/redis/redis_error.hpp>
#include <forma/redis/reply.hpp>
#include <forma/redis/script.hpp>
#include <forma/redis/session_store.hpp>
