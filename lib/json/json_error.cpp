#include <forma/json/json_error.hpp>
#include <forma/registered_secret.hpp>

namespace forma {
namespace {

std::string describe(const std::string& path, const std::string& reason) {
    if (path.empty()) return reason;
    return "at " + path + ": " + reason;
}

} // namespace

json_error::json_error(std::string path, std::string reason, std::size_t offset)
    : error(describe(path, reason)), path_(redact_secrets(path)), reason_(redact_secrets(reason)),
      offset_(offset) {}

json_error::json_error() : json_error({}, "unknown JSON error") {}

json_error::~json_error() = default;

void throw_exception_from_error(const json_error& e, const boost::source_location&) { throw e; }

} // namespace forma
