#pragma once

#include <forma/model/agent_response.hpp>
#include <forma/model/agent_response_update.hpp>

#include <concepts>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>

namespace forma {

/** Merges streamed updates into a response, one update at a time.

    The rules, applied per update in order:
    - a new message starts when the update's message id, role or author differs
      from the current message's (an empty id or author, or no role, is no
      change); a new message is an assistant's unless the update says otherwise;
      the message takes the first non-empty id and author it sees;
    - an update with no role, author, message id or contents other than usage
      starts no message (a usage-only update adds to the usage and nothing else);
    - adjacent text contents coalesce into one, so do adjacent refusals and
      adjacent reasoning contents (unless the earlier one already has protected data), never across
      other kinds; a merged content keeps the first one's properties and drops
      the raw representations, which described the pieces;
    - usage contents are summed into the response's usage, not kept as contents;
    - the last non-empty response id, agent id and finish reason win;
    - the first created time after the epoch wins, for the response and for each
      message;
    - the continuation token is the last update's, so a stream whose final update
      has none is complete;
    - update properties are merged into the response's, later ones winning; the
      updates' raw representations are not kept.

    Each update costs time in proportion to its own size, never to what was
    merged before: text is appended in place.
*/
class agent_response_builder {
public:
    void add(const agent_response_update& update);
    /// Moves the update's strings and contents instead of copying them.
    void add(agent_response_update&& update);

    /// What has been merged so far.
    const agent_response<>& response() const noexcept { return response_; }

    /// Hands out the merged response and starts over empty.
    agent_response<> take() {
        agent_response<> out = std::move(response_);
        // Made anew in place: cheaper than assigning an empty one (its property bags' moves).
        static_assert(std::is_nothrow_default_constructible_v<agent_response<>>);
        std::destroy_at(&response_);
        std::construct_at(&response_);
        return out;
    }

private:
    template <class Update>
    void add_update(Update&& update);

    agent_response<> response_;
};

/** Merges `updates` (any input range of agent_response_update) into one
    response, by the rules of agent_response_builder.

    A range passed as an rvalue container (not a view) has its elements moved from.
*/
template <std::ranges::input_range Updates>
    requires std::same_as<std::remove_cvref_t<std::ranges::range_reference_t<Updates>>,
                          agent_response_update>
agent_response<> to_agent_response(Updates&& updates) {
    constexpr bool may_move = !std::is_lvalue_reference_v<Updates> &&
                              !std::ranges::view<std::remove_cvref_t<Updates>>;
    agent_response_builder builder;
    for (auto&& update : updates) {
        if constexpr (may_move)
            builder.add(std::move(update));
        else
            builder.add(std::forward<decltype(update)>(update));
    }
    return builder.take();
}

} // namespace forma
