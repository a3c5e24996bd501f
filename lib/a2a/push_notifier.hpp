#pragma once
// The push notifications of a2a::server: the webhooks' configs (kept by the instance that took
// them) and, per task with configs, a follower that watches the task in the task store and POSTs
// each change of its state (with the answer, once it completed) to every webhook of the task, in
// the A2A version of the request that gave the config.

#include <forma/a2a/agent_card.hpp>
#include <forma/a2a/push_notifications.hpp>
#include <forma/agent/task_store.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/json/object.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace forma::a2a::detail {

/// One webhook of a task.
struct push_config {
    std::string id;
    std::string task_id;
    std::string url;
    /// Sent back as X-A2A-Notification-Token, so that the receiver knows the notification is its.
    std::string token{};
    /// Authorization: "<scheme> <credentials>", when a scheme is given.
    std::string scheme{};
    std::string credentials{};
    /// The shapes of its notifications.
    protocol_version version = protocol_version::v1_0;
};

/** A config's fields as either version writes it, checking nothing: 1.0's flat
    TaskPushNotificationConfig, or 0.3's {"taskId", "pushNotificationConfig": {...}} or the inner
    object alone; authentication with 1.0's "scheme" or 0.3's "schemes" (the first).
*/
push_config push_config_fields(const boost::json::object& given);

/** A config as a request gives it: 1.0's TaskPushNotificationConfig ({"taskId", "id"?, "url",
    "token"?, "authentication"?: {"scheme", "credentials"}}), or 0.3's {"url", "id"?, "token"?,
    "authentication"?: {"schemes": [...], "credentials"}} (the task id given apart).
    @throws std::invalid_argument with a sentence for the caller: no url, or one that is not
    http(s), or names an IP address `allowed` refuses.
*/
push_config read_push_config(const boost::json::object& given, std::string task_id, protocol_version version,
                             const push_notification_options& options);

/// A config in its version's shape: 1.0's TaskPushNotificationConfig, or 0.3's {"taskId",
/// "pushNotificationConfig"} (no "id" while it has none: a client's config before the agent names it).
boost::json::object push_config_object(const push_config& config);

class push_notifier {
public:
    push_notifier(boost::asio::any_io_executor executor, std::shared_ptr<task_store> tasks, push_notification_options options,
                  bool as_data);
    /// Stops every follower; deliveries under way are canceled.
    ~push_notifier();
    push_notifier(const push_notifier&) = delete;
    push_notifier& operator=(const push_notifier&) = delete;

    /** Keeps `config` (a new id when it has none, replacing the one of the same id) and follows
        `task` from where it stands now. @throws error past max_configs_per_task or max_configs.
    */
    push_config add(push_config config, const agent_task& task);
    std::optional<push_config> find(const std::string& task_id, const std::string& id) const;
    std::vector<push_config> of_task(const std::string& task_id) const;
    /// Whether there was one.
    bool remove(const std::string& task_id, const std::string& id);

    push_delivery_counts counts() const noexcept;

private:
    struct state;
    std::shared_ptr<state> state_;
};

} // namespace forma::a2a::detail
