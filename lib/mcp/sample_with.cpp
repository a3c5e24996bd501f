#include <forma/mcp/sample_with.hpp>

#include <forma/error.hpp>

namespace forma::mcp {

namespace {

// Text, images and audio: what a sampling answer may hold.
std::vector<content> sampled_contents(const chat_message& message) {
    std::vector<content> out;
    for (const content& c : message.contents) {
        if (std::holds_alternative<text_content>(c) || std::holds_alternative<data_content>(c)) out.push_back(c);
    }
    return out;
}

// A coroutine of its own, holding the model: the function that calls it may go first.
boost::asio::awaitable<sampling_result> sample(std::shared_ptr<chat_client> model, sampling_request request) {
    chat_options options;
    options.instructions = std::move(request.system_prompt);
    options.max_output_tokens = request.max_tokens;
    options.temperature = request.temperature;
    options.stop_sequences = std::move(request.stop_sequences);
    const agent_response<> response = co_await model->get_response(std::move(request.messages), std::move(options));
    if (response.messages.empty()) throw error("the model answered the sampling request with no message");
    sampling_result result{.message = chat_message(chat_role::assistant(), sampled_contents(response.messages.back())),
                           .model = model->provider().default_model,
                           .stop_reason = "endTurn"};
    if (result.model.empty()) result.model = "unknown";
    if (response.finish_reason == finish_reason::length()) result.stop_reason = "maxTokens";
    co_return result;
}

} // namespace

std::function<boost::asio::awaitable<sampling_result>(sampling_request)> sample_with(std::shared_ptr<chat_client> model) {
    if (!model) throw error("sample_with needs a chat_client");
    return [model](sampling_request request) { return sample(model, std::move(request)); };
}

} // namespace forma::mcp
