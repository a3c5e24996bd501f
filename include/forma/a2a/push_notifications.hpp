#pragma once

#include <forma/net/tls_trust.hpp>

#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace forma::a2a {

/** Whether an address is one a webhook of an unknown caller may reach: not loopback, private
    (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local (169.254/16, fe80::/10),
    unspecified, multicast or broadcast, nor an IPv4 one of these written as IPv6.
*/
bool is_public_address(const boost::asio::ip::address& address) noexcept;

/// Push notifications of a2a::server (A2A webhooks): off unless `enabled`.
struct push_notification_options {
    /// The card says pushNotifications: true and the config methods work; else they answer -32003.
    bool enabled = false;
    /** The addresses a webhook may be reached at, checked on the address connected to (a host
        name is resolved, and each of its addresses checked, at every delivery). Empty:
        is_public_address, the SSRF rule of A2A 1.0 section 13.2. Tests and fleets on a private
        network name their own (`[](const auto& a) { return a.is_loopback(); }`).
    */
    std::function<bool(const boost::asio::ip::address&)> allow_address{};
    /// How long one delivery may take, connecting included.
    std::chrono::milliseconds timeout{std::chrono::seconds(10)};
    /// Tries per notification: a refused connection, a timeout, 429 or a 5xx is tried again
    /// after `retry_after`, doubled each time; another answer (4xx) ends it.
    int attempts = 3;
    std::chrono::milliseconds retry_after{std::chrono::seconds(1)};
    /// Configs one task may have.
    std::size_t max_configs_per_task = 8;
    /// Configs kept in all: past this, those of finished tasks go first (oldest first); when
    /// none can go, a new config is refused.
    std::size_t max_configs = 10'000;
    /// Which https webhooks are trusted.
    net::tls_trust trust{};
};

/// What the push notifications of a server have done since it started.
struct push_delivery_counts {
    /// Notifications a webhook answered with 2xx.
    std::uint64_t delivered = 0;
    /// Notifications given up on (attempts spent, a 4xx, or an address not allowed).
    std::uint64_t failed = 0;
};

} // namespace forma::a2a
