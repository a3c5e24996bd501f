#include <forma/agent/agent.hpp>

#include <forma/chat/chat_client.hpp>

#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <random>

namespace forma {

update_source::~update_source() = default;
chat_client::~chat_client() = default;
agent::~agent() = default;

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

std::vector<chat_message> one_message(chat_message message) {
    std::vector<chat_message> messages;
    messages.push_back(std::move(message));
    return messages;
}

} // namespace

update_stream make_update_stream(boost::asio::any_io_executor executor,
                                 std::vector<agent_response_update> updates) {
    return update_stream(std::move(executor), std::make_unique<vector_source>(std::move(updates)));
}

std::string make_unique_id() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    static constexpr char hex[] = "0123456789abcdef";
    std::string id(32, '0');
    for (int half = 0; half < 2; ++half) {
        std::uint64_t bits = engine();
        for (int i = 0; i < 16; ++i, bits >>= 4) id[half * 16 + i] = hex[bits & 0xF];
    }
    return id;
}

forma::chat_options agent::effective_chat_options(const agent_run_options& run_options) const {
    forma::chat_options out = run_options.chat_options.value_or(forma::chat_options{});
    if (run_options.response_format) out.response_format = run_options.response_format;
    if (run_options.structured_output_mode) out.structured_output_mode = run_options.structured_output_mode;
    return out;
}

std::shared_ptr<agent_session> agent::create_session() const {
    return std::make_shared<agent_session>(make_unique_id());
}

boost::asio::awaitable<agent_response<>> agent::run(std::vector<chat_message> messages,
                                                    std::shared_ptr<agent_session> session,
                                                    agent_run_options options) {
    if (!session) session = create_session();
    return run_core(std::move(messages), std::move(session), std::move(options));
}

boost::asio::awaitable<agent_response<>> agent::run(chat_message message,
                                                    std::shared_ptr<agent_session> session,
                                                    agent_run_options options) {
    return run(one_message(std::move(message)), std::move(session), std::move(options));
}

boost::asio::awaitable<agent_response<>> agent::run(std::string user_message,
                                                    std::shared_ptr<agent_session> session,
                                                    agent_run_options options) {
    return run(chat_message(chat_role::user(), std::move(user_message)), std::move(session),
               std::move(options));
}

update_stream agent::run_streaming(std::vector<chat_message> messages,
                                   std::shared_ptr<agent_session> session, agent_run_options options) {
    if (!session) session = create_session();
    return run_streaming_core(std::move(messages), std::move(session), std::move(options));
}

update_stream agent::run_streaming(chat_message message, std::shared_ptr<agent_session> session,
                                   agent_run_options options) {
    return run_streaming(one_message(std::move(message)), std::move(session), std::move(options));
}

update_stream agent::run_streaming(std::string user_message, std::shared_ptr<agent_session> session,
                                   agent_run_options options) {
    return run_streaming(chat_message(chat_role::user(), std::move(user_message)), std::move(session),
                         std::move(options));
}

} // namespace forma
