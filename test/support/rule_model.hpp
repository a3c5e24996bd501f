#pragma once
// A chat model of rules, for servers under fuzzing and load: every answer is made at once (no
// timers), so a run ends while its request is answered.

#include <forma/chat/chat_client.hpp>
#include <forma/chat/update_stream.hpp>
#include <forma/error.hpp>
#include <forma/model/agent_response_builder.hpp>
#include <forma/model/awaits_input.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace forma_test {

/** A model of rules over the last message: a tool result gets "Done: <result>"; otherwise by the
    user's first word: "delete <path>" calls delete_file (which needs approval) with a call id of
    its own, "ask" asks a question (awaits_input), "fail" throws, "json" answers {"name","age"},
    "count" answers in three pieces, "keep" answers "Kept" (whatever it was told), anything
    else is echoed. */
class rule_model final : public forma::chat_client {
public:
    explicit rule_model(boost::asio::any_io_executor ex) : executor_(std::move(ex)) {}
    executor_type get_executor() const override { return executor_; }

    int failures = 0; ///< runs made to fail ("fail")

protected:
    boost::asio::awaitable<forma::agent_response<>> get_response_core(forma::chat_request request) override {
        co_return forma::to_agent_response(answer(request));
    }
    forma::update_stream get_streaming_response_core(forma::chat_request request) override {
        return forma::make_update_stream(executor_, answer(request));
    }

private:
    std::vector<forma::agent_response_update> answer(const forma::chat_request& request) {
        using namespace forma;
        std::vector<agent_response_update> out;
        const auto say = [&](std::string text) { out.emplace_back(chat_role::assistant(), std::move(text)); };
        if (request.messages.empty()) {
            say("Nothing was said");
            return out;
        }
        const chat_message& last = request.messages.back();
        for (const content& c : last.contents)
            if (const auto* result = std::get_if<function_result_content>(&c)) {
                say("Done: " + boost::json::serialize(result->result));
                return out;
            }
        const std::string text = last.text();
        if (text.starts_with("delete")) {
            agent_response_update call(chat_role::assistant(), std::vector<content>{
                function_call_content("call-" + std::to_string(++calls_), "delete_file", {{"path", text.substr(std::min<std::size_t>(7, text.size()))}})});
            out.push_back(std::move(call));
        } else if (text.starts_with("ask")) {
            say("Which city?");
            out.back().additional_properties[std::string(awaits_input_property)] = true;
        } else if (text.starts_with("fail")) {
            ++failures;
            throw forma::error("failed on purpose");
        } else if (text.starts_with("json")) {
            say(R"({"name":"Ada","age":36})");
        } else if (text.starts_with("keep")) {
            say("Kept");
        } else if (text.starts_with("count")) {
            say("one ");
            say("two ");
            say("three");
        } else {
            say("Echo: " + text);
        }
        return out;
    }

    executor_type executor_;
    int calls_ = 0;
};

} // namespace forma_test
