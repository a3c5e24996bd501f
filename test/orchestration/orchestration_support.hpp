#pragma once
// Orchestrations over the local model server on real TLS: each participant is a chat agent whose
// instructions name it ("agent:<name>"), and the server answers each agent from its own script,
// whole or streamed as the request asks.

#include "openai/loopback.hpp"

#include <forma/agent/chat_client_agent.hpp>
#include <forma/orchestration.hpp>

#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace orchestration_test {

using forma::testing::scripted_reply;
using forma::testing::scripted_tool_call;

/// One model turn of a participant: tool calls, or else text (or a reply as it is).
struct turn {
    std::vector<scripted_tool_call> calls{};
    std::string text{};
    std::optional<scripted_reply> reply{};
};

inline turn says(std::string text) { return {.text = std::move(text)}; }
inline turn calls(std::string id, std::string name, std::string arguments = "{}") {
    return {.calls = {{std::move(id), std::move(name), std::move(arguments)}}};
}

/// The agent a request is from: its system message, "agent:<name>"; "" when none.
inline std::string agent_of(const boost::json::object& body) {
    const auto& messages = body.at("messages").as_array();
    if (messages.empty()) return {};
    const auto& first = messages.front().as_object();
    if (first.at("role") != "system") return {};
    const std::string content(first.at("content").as_string());
    const auto at = content.find("agent:");
    if (at == std::string::npos) return {};
    const auto end = content.find_first_of(" \n", at);
    return content.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6);
}

inline std::string json_text(const forma::agent_response<>& r) { return boost::json::serialize(boost::json::value_from(r)); }

/// What a stream can't match of a whole response: raw bodies and the server's time stamps.
inline forma::agent_response<> comparable(forma::agent_response<> r) {
    r.raw_representation = nullptr;
    r.created_at.reset();
    for (auto& m : r.messages) {
        m.created_at.reset();
        for (auto& c : m.contents)
            if (!std::holds_alternative<forma::function_call_content>(c)) forma::metadata_of(c).raw_representation = nullptr;
    }
    return r;
}

class fixture : public loopback::fixture {
protected:
    fixture() {
        server().set_handler([this](const forma::testing::received_request& request) -> std::optional<scripted_reply> {
            const auto body = boost::json::parse(request.body).as_object();
            const std::string agent = agent_of(body);
            std::lock_guard lock(mutex_);
            asked_.push_back(agent);
            bodies_[agent].push_back(body);
            auto& script = scripts_[agent];
            if (script.empty()) return scripted_reply::error(500, "server_error", "nothing scripted for " + agent);
            turn next = std::move(script.front());
            script.pop_front();
            if (next.reply) return std::move(*next.reply);
            const bool stream = body.contains("stream") && body.at("stream").as_bool();
            if (!next.calls.empty())
                return stream ? scripted_reply::stream_tool_calls(next.calls) : scripted_reply::tool_calls(next.calls);
            return stream ? scripted_reply::stream(next.text) : scripted_reply::completion(next.text);
        });
    }

    /// Queues `turns` for the agent `name`.
    void script(const std::string& name, std::vector<turn> turns) {
        std::lock_guard lock(mutex_);
        for (auto& t : turns) scripts_[name].push_back(std::move(t));
    }

    /// A participant: a chat agent over its own client of the server.
    std::shared_ptr<forma::chat_client_agent> participant(const std::string& name, std::vector<forma::function_tool> tools = {},
                                                          std::string description = {}) {
        clients_.push_back(std::make_shared<forma::openai::chat_client>(io.get_executor(), options_for(server())));
        return std::make_shared<forma::chat_client_agent>(
            *clients_.back(), forma::chat_client_agent_options{.name = name,
                                                               .description = std::move(description),
                                                               .instructions = "agent:" + name,
                                                               .tools = std::move(tools)});
    }

    std::vector<std::string> asked() {
        std::lock_guard lock(mutex_);
        return asked_;
    }
    std::vector<boost::json::object> bodies_of(const std::string& name) {
        std::lock_guard lock(mutex_);
        return bodies_[name];
    }
    void forget_requests() {
        std::lock_guard lock(mutex_);
        asked_.clear();
        bodies_.clear();
    }

    std::mutex mutex_;
    std::map<std::string, std::deque<turn>> scripts_;
    std::vector<std::string> asked_;
    std::map<std::string, std::vector<boost::json::object>> bodies_;
    std::vector<std::shared_ptr<forma::openai::chat_client>> clients_;
};

/// The tool names a request offered.
inline std::vector<std::string> tools_offered(const boost::json::object& body) {
    std::vector<std::string> out;
    if (const auto* tools = body.if_contains("tools"))
        for (const auto& t : tools->as_array()) out.emplace_back(t.at("function").at("name").as_string());
    return out;
}

/// Every handoff content of the messages.
inline std::vector<forma::handoff_content> handoffs_in(const std::vector<forma::chat_message>& messages) {
    std::vector<forma::handoff_content> out;
    for (const auto& m : messages)
        for (const auto& c : m.contents)
            if (const auto* h = std::get_if<forma::handoff_content>(&c)) out.push_back(*h);
    return out;
}

} // namespace orchestration_test
