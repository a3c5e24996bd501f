#pragma once
// The mistakes the local model server makes on purpose in structured answers (answer_fault).

#include <forma/testing/model_server.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>

namespace forma::testing::detail {

/// Whether the answer to a request with this seed carries the fault: drawn from the seed,
/// so that about `rate` of the requests do.
bool fault_drawn(std::uint64_t seed, double rate) noexcept;

/// `answer` (a valid instance of `schema`) as text, with `fault` made in it.
std::string with_fault(boost::json::value answer, const boost::json::object& schema, answer_fault fault);

} // namespace forma::testing::detail
