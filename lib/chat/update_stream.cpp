// update_stream and its sources: the chat floor's stream of updates, which chat clients and agents share.
#include <forma/chat/update_stream.hpp>

#include <memory>
#include <utility>
#include <vector>

namespace forma {

update_source::~update_source() = default;

boost::asio::awaitable<std::optional<agent_response_update>> update_stream::next() {
    if (ended_ || !source_) co_return std::nullopt;
    std::optional<agent_response_update> update;
    try {
        update = co_await source_->next();
    } catch (...) {
        ended_ = true;
        source_.reset(); // a failed stream is over: release its connection now
        throw;
    }
    if (!update) {
        ended_ = true;
        source_.reset(); // release the producer (and its connection) as soon as it is done
    }
    co_return update;
}

namespace {

class vector_source final : public update_source {
public:
    explicit vector_source(std::vector<agent_response_update> updates) : updates_(std::move(updates)) {}

    boost::asio::awaitable<std::optional<agent_response_update>> next() override {
        if (next_ == updates_.size()) co_return std::nullopt;
        co_return std::move(updates_[next_++]);
    }

private:
    std::vector<agent_response_update> updates_;
    std::size_t next_ = 0;
};

} // namespace

update_stream make_update_stream(boost::asio::any_io_executor executor, std::vector<agent_response_update> updates) {
    return update_stream(std::move(executor), std::make_unique<vector_source>(std::move(updates)));
}

} // namespace forma
