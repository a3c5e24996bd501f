#pragma once
// Strings made from an ECMA-262 `pattern`: the candidates make_instance tries after prompt words.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forma::testing::detail {

struct pattern_node;
/// A pattern read for generating: one of these sequences.
using pattern_alternatives = std::vector<std::vector<pattern_node>>;

/// One atom of a pattern with its quantifier.
struct pattern_node {
    std::string chars;         // one of these characters, or
    pattern_alternatives alts; // one of these sequences (a group)
    std::size_t min = 1, max = 1;
};

/// `source` read for generating: literals, classes, `.`, `\d\w\s`, groups, `|`, quantifiers and
/// anchors; nullopt for what this does not generate (backreferences, lookaround, word
/// boundaries, code escapes) or cannot read.
std::optional<pattern_alternatives> read_pattern(std::string_view source);

/// A string the pattern may match, drawn with `rng`; `extra` is how many repetitions past the
/// minimum an unbounded quantifier takes. Classes draw from printable ASCII only (`.` from
/// "abcxyz"), and generation stops past 4096 bytes, so callers check the result.
std::string pattern_string(const pattern_alternatives& pattern, std::size_t extra, std::uint64_t& rng);

} // namespace forma::testing::detail
