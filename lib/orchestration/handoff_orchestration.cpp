#include <forma/orchestration/handoff_orchestration.hpp>

#include "../json/json_text.hpp"

#include <algorithm>
#include <memory>
#include <unordered_set>
#include <utility>

namespace forma {

using json_detail::valid_utf8;

namespace {

constexpr std::string_view tool_prefix = "handoff_to_";

/// A speaker's handoff tools, by tool name, with the participant each reaches.
using handoff_targets = std::vector<std::pair<std::string, std::string>>;

/** The tool that hands the conversation to `target`. Of the handoffs a turn calls, only the first
    is taken (the orchestration follows it); the others are told so, and where the conversation went. */
function_tool handoff_tool(const agent& target, std::shared_ptr<const handoff_targets> siblings) {
    const std::string name = handoff_orchestration::tool_name(target.name());
    std::string description = "Hand the conversation to " + std::string(target.name());
    if (!target.description().empty()) description += ": " + std::string(target.description());
    boost::json::object reason{{"type", "string"},
                               {"description", "Why, in a few words, for the agent taking over"}};
    boost::json::object parameters{{"type", "object"},
                                   {"properties", boost::json::object{{"reason", std::move(reason)}}},
                                   {"additionalProperties", false}};
    std::string said = "Handed off to " + std::string(target.name()) + ".";
    return function_tool(
        name, std::move(description), std::move(parameters),
        [said = boost::json::value(std::move(said)), siblings = std::move(siblings)](const tool_invocation& invocation)
            -> boost::asio::awaitable<boost::json::value> {
            for (const function_call_content& call : invocation.turn_calls) {
                const auto taken = std::find_if(siblings->begin(), siblings->end(), [&](const auto& t) { return t.first == call.name; });
                if (taken == siblings->end()) continue;
                if (call.call_id == invocation.call.call_id) break;
                co_return boost::json::value("Not handed off: only the first handoff of a turn is taken, and the conversation went to " +
                                             valid_utf8(taken->second) + ".");
            }
            co_return said;
        },
        {.stop_after_call = true});
}

std::string reason_of(const function_call_content& call) {
    const boost::json::value* reason = call.arguments.if_contains("reason");
    return reason && reason->is_string() ? valid_utf8(reason->get_string()) : std::string();
}

} // namespace

std::string handoff_orchestration::tool_name(std::string_view name) {
    std::string out(tool_prefix);
    for (const char c : name) {
        const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        out += kept ? c : '_';
    }
    if (out.size() > 64) out.resize(64);
    return out;
}

std::optional<std::size_t> handoff_orchestration::target_of(std::string_view tool) const {
    for (std::size_t i = 0; i < tool_names_.size(); ++i)
        if (tool_names_[i] == tool) return i;
    return std::nullopt;
}

handoff_orchestration::handoff_orchestration(std::vector<std::shared_ptr<agent>> participants, handoff_options options)
    : orchestration("handoff", std::move(participants), std::move(options.orchestration)), options_(std::move(options)) {
    options_.orchestration = {};
    if (!options_.start.empty()) start_ = index_of(options_.start);
    for (const auto& [from, targets] : options_.routes) {
        index_of(from);
        for (const std::string& to : targets) index_of(to);
    }
    const auto& all = this->participants();
    for (std::size_t i = 0; i < all.size(); ++i) {
        tool_names_.push_back(tool_name(all[i]->name()));
        for (std::size_t j = 0; j < i; ++j)
            if (tool_names_[j] == tool_names_[i])
                throw error("the participants \"" + valid_utf8(all[j]->name()) + "\" and \"" + valid_utf8(all[i]->name()) +
                            "\" would share the handoff tool \"" + tool_names_[i] +
                            "\" (a name's characters other than letters, digits, _ and - become _, and it is cut at 64): "
                            "rename one");
    }
    tools_.resize(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto route = options_.routes.find(all[i]->name());
        std::vector<std::size_t> targets;
        for (std::size_t j = 0; j < all.size(); ++j) {
            if (i == j) continue;
            if (route != options_.routes.end() &&
                std::find(route->second.begin(), route->second.end(), all[j]->name()) == route->second.end())
                continue;
            targets.push_back(j);
        }
        auto siblings = std::make_shared<handoff_targets>();
        for (const std::size_t j : targets) siblings->emplace_back(tool_names_[j], all[j]->name());
        for (const std::size_t j : targets) tools_[i].push_back(handoff_tool(*all[j], siblings));
    }
}

void handoff_orchestration::begin(orchestration_state& state) const { state.handoffs = 0; }

boost::asio::awaitable<std::vector<std::size_t>> handoff_orchestration::next_speakers(turn t) {
    if (t.state.step == 0) {
        // A new run: the agent that answered last has the conversation, unless it returns to the start.
        if (options_.return_to_start || t.state.speakers.empty()) co_return std::vector<std::size_t>{start_};
        co_return std::vector<std::size_t>{index_of(t.state.speakers.front())};
    }
    // Later steps follow a handoff; an answer that handed off no further ends the run.
    if (!t.conversation.empty())
        for (const content& c : t.conversation.back().contents)
            if (const auto* handoff = std::get_if<handoff_content>(&c))
                co_return std::vector<std::size_t>{index_of(handoff->to)};
    co_return std::vector<std::size_t>{};
}

std::vector<chat_message> handoff_orchestration::view(std::size_t, const turn& t) const {
    std::vector<chat_message> out;
    if (options_.history == handoff_history::full) {
        out = t.conversation;
    } else {
        std::unordered_set<std::string_view> handoff_calls;
        for (const chat_message& m : t.conversation)
            for (const content& c : m.contents)
                if (const auto* call = std::get_if<function_call_content>(&c); call && target_of(call->name))
                    handoff_calls.insert(call->call_id);
        out.reserve(t.conversation.size());
        for (const chat_message& m : t.conversation) {
            chat_message kept = m;
            std::erase_if(kept.contents, [&](const content& c) {
                if (std::holds_alternative<handoff_content>(c)) return true;
                if (const auto* call = std::get_if<function_call_content>(&c)) return handoff_calls.count(call->call_id) > 0;
                if (const auto* result = std::get_if<function_result_content>(&c))
                    return handoff_calls.count(result->call_id) > 0;
                return false;
            });
            if (kept.contents.empty() && !m.contents.empty()) continue;
            out.push_back(std::move(kept));
        }
    }
    if (options_.filter) out = options_.filter(std::move(out));
    return out;
}

void handoff_orchestration::prepare(std::size_t speaker, agent_run_options& options, const turn&) const {
    if (tools_[speaker].empty()) return;
    forma::chat_options tools;
    tools.tools = tools_[speaker];
    options.chat_options = options.chat_options ? merge(*options.chat_options, tools) : std::move(tools);
}

std::vector<chat_message> handoff_orchestration::after(std::size_t speaker, const agent_response<>& response, turn& t) {
    const std::string_view from = participants()[speaker]->name();
    const function_call_content* handoff = nullptr;
    for (const chat_message& m : response.messages) {
        for (const content& c : m.contents)
            if (const auto* call = std::get_if<function_call_content>(&c))
                if (std::any_of(tools_[speaker].begin(), tools_[speaker].end(),
                                [&](const function_tool& tool) { return tool.name() == call->name; })) {
                    handoff = call;
                    break;
                }
        if (handoff) break;
    }
    if (!handoff) {
        t.state.speakers = {std::string(from)}; // the next run goes on with whoever answered
        return {};
    }
    const std::string to(participants()[*target_of(handoff->name)]->name());
    chat_message moved(chat_role::assistant(), std::vector<content>{handoff_content(std::string(from), to, reason_of(*handoff))});
    moved.author_name = std::string(from);
    t.state.speakers = {to};
    if (t.state.handoffs >= options_.max_handoffs)
        throw orchestration_error("the handoff orchestration \"" + valid_utf8(name()) + "\" handed the conversation on " +
                                      std::to_string(t.state.handoffs + 1) + " times in one run (handoff_options::max_handoffs is " +
                                      std::to_string(options_.max_handoffs) + "); it stays with \"" + valid_utf8(to) +
                                      "\", where the next run starts",
                                  std::string(from), 0, nullptr, agent_response<>(std::move(moved)));
    ++t.state.handoffs;
    return {std::move(moved)};
}

} // namespace forma
