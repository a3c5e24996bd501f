#pragma once
// What a caught failure says, for a message (the one reader of an exception_ptr's what()), and
// whether it is a cancellation.

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

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

/// Whether `failure` is a cancellation (operation_aborted): what a canceled operation throws.
inline bool is_cancellation(const std::exception_ptr& failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const boost::system::system_error& e) {
        return e.code() == boost::asio::error::operation_aborted;
    } catch (...) {
        return false;
    }
}

} // namespace forma::text_detail
