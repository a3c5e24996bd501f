#pragma once

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace forma::a2a {

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
    /// Where its JSON-RPC endpoint is.
    std::string url;
    /// The A2A protocol version the card declares ("0.3.0"); may be empty.
    std::string protocol_version;
    /// Whether it streams (message/stream, tasks/resubscribe).
    bool streaming = false;
    std::vector<agent_skill> skills;
    /// The card as served.
    boost::json::object raw;
};

} // namespace forma::a2a
