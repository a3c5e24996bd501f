// partial_reader<T> fed in pieces must end where from_json of the whole text ends:
// the same value when from_json accepts the text, an error when it rejects it.
//
// Input: a config byte (root type, parse_options, bit 7: the `{"data": T}` wrapping),
// a byte that seeds the piece sizes (see fuzz_support.hpp), then the JSON text.
#include "fuzz_support.hpp"
#include "fuzz_types.hpp"

#include <forma/json.hpp>
#include <forma/json/partial_reader.hpp>

#include <string_view>

namespace {

template <class T>
auto read_whole(std::string_view text, bool wrapped, const forma::parse_options& options) {
    return wrapped ? forma::json_detail::try_read_wrapped<T>(text, options)
                   : forma::try_from_json<T>(text, options);
}

template <class T>
void read_in_pieces(std::string_view text, std::uint8_t split_seed, bool wrapped,
                    const forma::parse_options& options) {
    forma::partial_reader<T> reader(wrapped, options);
    bool fed_ok = true;
    for (std::string_view piece : forma_fuzz::pieces(text, split_seed)) {
        fed_ok = reader.feed(piece) && fed_ok;
        forma_fuzz::check(fed_ok == !reader.failed(), "feed() and failed() disagree");
        (void)reader.get().complete(); // a snapshot each step
        (void)reader.get().has_value();
    }
    forma_fuzz::check(reader.text() == text, "the reader lost or changed bytes");
    const auto whole = read_whole<T>(text, wrapped, options);
    const auto finished = reader.finish();
    forma_fuzz::check(finished.has_value() == whole.has_value(),
                      whole ? "finish() failed where from_json succeeds"
                            : "finish() succeeded where from_json fails");
    if (whole) {
        forma_fuzz::check(*finished == *whole, "finish() and from_json give different values");
        forma_fuzz::check(fed_ok, "feed() failed on text from_json accepts");
    }
    (void)reader.get().to_value();
    if (!fed_ok) (void)reader.error().what();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint8_t config = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
    const forma::parse_options options = forma_fuzz::options_from(config);
    const bool wrapped = (config & 128) != 0;
    forma_fuzz::with_root_type(config, [&](auto tag) {
        using T = typename decltype(tag)::type;
        read_in_pieces<T>(text, data[1], wrapped, options);
    });
    return 0;
}
