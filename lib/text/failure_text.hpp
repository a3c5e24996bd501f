#pragma once
// What a caught failure says, for a message: the one reader of an exception_ptr's what().

#include <exception>
#include <string>

namespace forma::text_detail {

/// `failure`'s what(), or a sentence saying it is no std::exception. Not checked for UTF-8.
inline std::string failure_text(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        return e.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}

} // namespace forma::text_detail
