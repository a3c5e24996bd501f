#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace forma::a2a {

/// The A2A protocol versions forma speaks (JSON-RPC binding), as client and as server.
enum class protocol_version { v0_3, v1_0 };

/// "0.3" or "1.0", as the A2A-Version header and the card's interfaces write them.
constexpr std::string_view to_string(protocol_version v) noexcept { return v == protocol_version::v1_0 ? "1.0" : "0.3"; }

/// One skill an agent card lists.
struct agent_skill {
    std::string id;
    std::string name;
    std::string description;
};

/// What a remote agent says about itself (`/.well-known/agent-card.json`).
struct agent_card {
    std::string name;
    std::string description;
    std::string version;
    /// Where its JSON-RPC endpoint is, for the version spoken.
    std::string url;
    /// The version forma speaks with it: 1.0 where the card lists a JSON-RPC 1.0 interface
    /// (agent_options::speak can hold it to 0.3), else 0.3.
    protocol_version spoken_version = protocol_version::v0_3;
    /// Whether it streams (message/stream, tasks/resubscribe).
    bool streaming = false;
    std::vector<agent_skill> skills;
    /// The card as served.
    boost::json::object raw;
};

} // namespace forma::a2a
