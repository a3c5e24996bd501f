#pragma once

#include <string>

namespace forma::a2a {

/// A webhook that a remote agent POSTs a task's changes to (an A2A push notification config).
struct push_notification_config {
    /// The agent's name for it; empty when setting one: the agent names it.
    std::string id{};
    std::string url;
    /// Sent back with each notification (X-A2A-Notification-Token), for the receiver to check.
    std::string token{};
    /// The Authorization the agent sends with each notification: "<scheme> <credentials>".
    std::string scheme{};
    std::string credentials{};
};

} // namespace forma::a2a
