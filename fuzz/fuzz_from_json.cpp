// from_json<T> over rich described types; a value it accepts must survive
// to_json -> from_json unchanged, and from_json_errors<T> must agree with it.
//
// Input: one config byte (root type, parse_options; see fuzz_types.hpp), then the JSON text.
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

#include <forma/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {

template <class T>
void read_and_round_trip(std::string_view text, const forma::parse_options& options) {
    auto parsed = forma::try_from_json<T>(text, options);
    bool threw = false;
    bool thrown_ok = forma_fuzz::only_typed_errors([&] {
        try {
            (void)forma::from_json<T>(text, options);
        } catch (const forma::json_error&) {
            threw = true;
            throw;
        }
    });
    forma_fuzz::check(parsed.has_value() == thrown_ok, "from_json and try_from_json disagree");
    forma_fuzz::check(parsed.has_value() != threw,
                      "from_json threw although try_from_json succeeded");
    // Collecting every error agrees with the single read: none for a value it accepts, and
    // the error it reports first.
    std::vector<forma::json_error> all;
    forma_fuzz::check(forma_fuzz::only_typed_errors([&] { all = forma::from_json_errors<T>(text, options); }),
                      "from_json_errors threw");
    forma_fuzz::check(all.empty() == parsed.has_value(), "from_json_errors and try_from_json disagree");
    forma_fuzz::check(all.size() <= 20, "from_json_errors passed its limit");
    if (!parsed) {
        (void)parsed.error().what(); // the message and path must be buildable
        (void)parsed.error().path();
        forma_fuzz::check(all.front().path() == parsed.error().path() &&
                              all.front().reason() == parsed.error().reason() &&
                              all.front().offset() == parsed.error().offset(),
                          "from_json_errors' first error is not try_from_json's");
        return;
    }
    // A value from_json accepted is valid: to_json writes it, and the default options
    // (depth 64, unknown members skipped) read it back equal.
    std::string written;
    forma_fuzz::check(forma_fuzz::only_typed_errors([&] { written = forma::to_json(*parsed); }),
                      "to_json failed on a value from_json accepted");
    auto again = forma::try_from_json<T>(written, options);
    if (!again) {
        std::fprintf(stderr, "written: %s\nerror: %s\n", written.c_str(), again.error().what());
        forma_fuzz::fail("from_json rejected what to_json wrote");
    }
    forma_fuzz::check(*again == *parsed, "to_json -> from_json changed the value");
    forma_fuzz::check(forma::to_json(*again) == written,
                      "to_json is not stable across a round trip");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t config = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const forma::parse_options options = forma_fuzz::options_from(config);
    forma_fuzz::with_root_type(config, [&](auto tag) {
        using T = typename decltype(tag)::type;
        read_and_round_trip<T>(text, options);
    });
    return 0;
}
