// forma's orchestrations: many agents as one (handoffs, sequential, concurrent, group chat).
#pragma once

#include <forma/orchestration/concurrent_orchestration.hpp>
#include <forma/orchestration/group_chat_orchestration.hpp>
#include <forma/orchestration/handoff_orchestration.hpp>
#include <forma/orchestration/orchestration.hpp>
#include <forma/orchestration/orchestration_error.hpp>
#include <forma/orchestration/orchestration_state.hpp>
#include <forma/orchestration/sequential_orchestration.hpp>
