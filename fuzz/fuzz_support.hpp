// What every fuzz target shares: the rule on which exceptions may escape, and a
// reproducible way to cut an input into pieces.
#pragma once

#include <forma/error.hpp>
#include <forma/model/agent_response_builder.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <boost/system/system_error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <vector>

namespace forma_fuzz {

/// A broken invariant: say which and abort, so that libFuzzer keeps the input.
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fuzz oracle: %s\n", what);
    std::abort();
}

inline void check(bool ok, const char* what) {
    if (!ok) fail(what);
}

/** Runs `f`, letting only typed errors pass: forma::error and its subclasses, and
    boost::system::system_error (Boost.JSON's documented parse error). Anything
    else (std::bad_alloc, std::out_of_range, a stray exception) is a finding.
    @returns whether `f` returned normally.
*/
template <class F>
bool only_typed_errors(F&& f) {
    try {
        f();
        return true;
    } catch (const forma::error&) {
        return false;
    } catch (const boost::system::system_error&) {
        return false;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz oracle: untyped exception escaped: %s\n", e.what());
        std::abort();
    } catch (...) {
        fail("an exception not derived from std::exception escaped");
    }
}

/** Piece sizes for cutting `total` bytes, drawn from `seed`: seed 0 gives one
    piece (all at once), seed 1 pieces of one byte, others sizes of 1 to 64 bytes
    from a small PRNG, so that the text itself is mutated apart from its cuts.
*/
inline std::vector<std::size_t> piece_sizes(std::size_t total, std::uint8_t seed) {
    std::vector<std::size_t> sizes;
    if (seed == 0) {
        sizes.push_back(total);
        return sizes;
    }
    std::uint32_t state = seed * 2654435761u;
    for (std::size_t left = total; left > 0;) {
        std::size_t n = 1;
        if (seed != 1) {
            state = state * 1664525u + 1013904223u;
            n = 1 + (state >> 24) % 64;
        }
        n = n < left ? n : left;
        sizes.push_back(n);
        left -= n;
    }
    return sizes;
}

/// `text` cut by piece_sizes(text.size(), seed).
inline std::vector<std::string_view> pieces(std::string_view text, std::uint8_t seed) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    for (std::size_t n : piece_sizes(text.size(), seed)) {
        out.push_back(text.substr(at, n));
        at += n;
    }
    if (out.empty()) out.emplace_back(); // an empty input is still fed once
    return out;
}

/// Whether `text` is UTF-8 (what Boost.JSON's parser accepts in a string).
inline bool valid_utf8_text(std::string_view text) {
    boost::json::string s(text);
    boost::system::error_code ec;
    (void)boost::json::parse(boost::json::serialize(s), ec);
    return !ec;
}

/// The records of a sequence input (its bytes after the config byte): cut at 0x1e, 16 at most.
inline std::vector<std::string_view> records(std::string_view bytes) {
    std::vector<std::string_view> out;
    while (out.size() < 16) {
        const std::size_t end = bytes.find('\x1e');
        out.push_back(bytes.substr(0, end));
        if (end == std::string_view::npos) break;
        bytes.remove_prefix(end + 1);
    }
    return out;
}

/** Feeds `bytes` in pieces (`split_seed`) to a provider's stream parser, merging the updates
    (copied and moved in turn, starting with a copy when `copy_first`); when the stream ends
    whole, checks what is documented: to_agent_response(r.to_updates()) == r for every r that
    to_agent_response made.
*/
template <class Parser>
void merge_stream(Parser& parser, std::string_view bytes, bool copy_first, std::uint8_t split_seed) {
    forma::agent_response_builder builder;
    bool copy = copy_first;
    const bool completed = only_typed_errors([&] {
        for (std::string_view piece : pieces(bytes, split_seed))
            while (auto update = parser.next(piece)) {
                (void)update->text();
                if (copy)
                    builder.add(*update);
                else
                    builder.add(std::move(*update));
                copy = !copy;
            }
        parser.finish();
    });
    const forma::agent_response<> merged = builder.take();
    (void)merged.text();
    if (completed)
        check(forma::to_agent_response(merged.to_updates()) == merged,
              "a merged response does not merge back from its own updates");
}

} // namespace forma_fuzz
