#pragma once
// An AG-UI RunAgentInput read as a run's input: the conversation as chat messages (the
// application's state and context as a system message), and the answers to the interrupts
// of a paused run.

#include <forma/model/chat_message.hpp>

#include "request_error.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace forma::serving::detail {

/// One of RunAgentInput.resume: the answer to an interrupt.
struct ag_ui_resume_entry {
    std::string interrupt_id;
    bool resolved = true; ///< "resolved"; false: "cancelled"
    boost::json::value payload{};
};

struct ag_ui_run_input {
    std::string thread_id;
    std::string run_id;
    std::string parent_run_id{};
    std::vector<chat_message> messages{};
    std::vector<ag_ui_resume_entry> resume{};
    /// forwardedProps, when the client sent an object with members.
    boost::json::object forwarded_props{};
};

/// POST RunAgentInput. @throws request_error naming the field at fault.
ag_ui_run_input read_run_input(const boost::json::object& body);

} // namespace forma::serving::detail
