#pragma once

#include <forma/json/from_json.hpp>

#include <boost/describe/class.hpp>
#include <boost/system/result.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace forma::json_detail {

template <class T>
struct data_wrapper {
    T data;
    BOOST_DESCRIBE_CLASS(data_wrapper, (), (data), (), ())
};

/// Reads `{"data": <T>}`, or the text as a T when it has no "data" member.
template <class T>
boost::system::result<T, json_error> try_read_wrapped(std::string_view text, const parse_options& options) {
    auto wrapped = try_from_json<data_wrapper<T>>(text, options);
    if (wrapped) return std::move(wrapped->data);
    if (!wrapped.error().path().empty()) return wrapped.error(); // inside "data": report it
    return try_from_json<T>(text, options);
}

/// from_json_errors of try_read_wrapped: errors inside "data" when it is there, else of the
/// text as a T. `value` is what try_read_wrapped reads when no error is listed.
template <class T>
std::vector<json_error> read_wrapped_listing_errors(std::string_view text, T& value, const parse_options& options,
                                                    std::size_t limit) {
    data_wrapper<T> wrapper{};
    std::vector<json_error> errors = read_listing_errors(text, wrapper, options, limit);
    if (errors.empty()) value = std::move(wrapper.data);
    if (errors.empty() || !errors.front().path().empty()) return errors;
    return read_listing_errors(text, value, options, limit);
}

} // namespace forma::json_detail
