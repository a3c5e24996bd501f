// forma's A2A client: remote agents (Agent2Agent protocol) as forma agents.
#pragma once

#include <forma/a2a/a2a_error.hpp>
#include <forma/a2a/agent.hpp>
#include <forma/a2a/agent_card.hpp>
#include <forma/a2a/push_notification_config.hpp>
#include <forma/a2a/push_notifications.hpp>
#include <forma/a2a/remote_task.hpp>
#include <forma/a2a/server.hpp>
