#include <forma/json/json_error.hpp>

namespace forma {
namespace {

std::string describe(const std::string& path, const std::string& reason) {
    if (path.empty()) return reason;
    return "at " + path + ": " + reason;
}

} // namespace

json_error::json_error(std::string path, std::string reason, std::size_t offset)
    : error(describe(path, reason)), path_(std::move(path)), reason_(std::move(reason)),
      offset_(offset) {}

json_error::json_error() : json_error({}, "unknown JSON error") {}

json_error::~json_error() = default;

void throw_exception_from_error(const json_error& e, const boost::source_location&) { throw e; }

} // namespace forma
