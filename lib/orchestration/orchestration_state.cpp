#include <forma/orchestration/orchestration_state.hpp>

#include "state_writer.hpp"

#include "../model/json_support.hpp"

#include <array>

namespace forma {

namespace {

using namespace model_detail;

constexpr std::array<std::string_view, 3> status_names = {"idle", "running", "waiting"};

std::size_t read_count(const boost::json::object& o, std::string_view key) {
    const std::optional<std::int64_t> count = read_optional_int(o, key);
    if (count && *count < 0) fail(member_path(key), "expected a non-negative integer");
    return count ? static_cast<std::size_t>(*count) : 0;
}

} // namespace

namespace orchestration_detail {

void write_state(boost::json::value& json, const orchestration_state& state) {
    // Members are assigned in place: a state written at every step reuses its object and strings.
    boost::json::object& o = json.is_object() ? json.get_object() : json.emplace_object();
    o["kind"] = state.kind;
    o["status"] = status_names[static_cast<std::size_t>(state.status)];
    boost::json::value& speakers = o["speakers"];
    boost::json::array& names = speakers.is_array() ? speakers.get_array() : speakers.emplace_array();
    names.resize(state.speakers.size());
    for (std::size_t i = 0; i < state.speakers.size(); ++i) names[i] = state.speakers[i];
    o["step"] = state.step;
    o["handoffs"] = state.handoffs;
    o["rounds"] = state.rounds;
    o["fan_out_start"] = state.fan_out_start;
    if (state.participants.empty()) {
        o.erase("participants");
        return;
    }
    boost::json::object participants;
    for (const auto& [name, memory] : state.participants)
        participants[name] = boost::json::object{{"seen", memory.seen}, {"state", memory.state}};
    o["participants"] = std::move(participants);
}

} // namespace orchestration_detail

void tag_invoke(boost::json::value_from_tag, boost::json::value& json, const orchestration_state& state) {
    json = nullptr;
    orchestration_detail::write_state(json, state);
}

orchestration_state tag_invoke(boost::json::value_to_tag<orchestration_state>, const boost::json::value& json) {
    const boost::json::object& o = expect_object(json, "orchestration state");
    orchestration_state state;
    state.kind = read_required_string(o, "kind");
    const std::string status = read_string(o, "status");
    bool known = status.empty();
    for (std::size_t i = 0; i < status_names.size(); ++i)
        if (status == status_names[i]) {
            state.status = static_cast<orchestration_status>(i);
            known = true;
        }
    if (!known) fail("/status", "expected \"idle\", \"running\" or \"waiting\", got \"" + status + "\"");
    state.speakers = read_array<std::string>(o, "speakers");
    state.step = read_count(o, "step");
    state.handoffs = read_count(o, "handoffs");
    state.rounds = read_count(o, "rounds");
    state.fan_out_start = read_count(o, "fan_out_start");
    const boost::json::object participants = read_object(o, "participants");
    for (const auto& member : participants)
        at_member("participants", [&] {
            at_member(member.key(), [&] {
                const boost::json::object& memory = expect_object(member.value(), "participant memory");
                state.participants[std::string(member.key())] = {read_count(memory, "seen"), read_object(memory, "state")};
            });
        });
    return state;
}

} // namespace forma
