#pragma once

#include <forma/error.hpp>

#include <boost/assert/source_location.hpp>

#include <cstddef>
#include <string>

namespace forma {

/** JSON that is invalid, or valid but not of the expected shape.

    `what()` reads "at /address/zip: expected string, got number 123";
    syntax errors add the line and column. `path()` is the JSON Pointer
    (RFC 6901) of the offending value, empty for the root.
*/
class json_error : public error {
public:
    json_error(std::string path, std::string reason, std::size_t offset = npos);
    /// An empty error, as boost::system::result requires; reason() is "unknown JSON error".
    json_error();
    ~json_error() override;

    /// JSON Pointer to the offending value ("" is the whole document).
    const std::string& path() const noexcept { return path_; }
    /// The reason without the location, e.g. `expected integer, got string "x"`.
    const std::string& reason() const noexcept { return reason_; }
    /// Byte offset in the input where reading stopped, or npos when not from parsing.
    std::size_t offset() const noexcept { return offset_; }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    std::string path_;
    std::string reason_;
    std::size_t offset_;
};

/// Lets boost::system::result<T, json_error>::value() throw the error itself.
[[noreturn]] void throw_exception_from_error(const json_error& e, const boost::source_location&);

} // namespace forma
