#pragma once
// What a prompt offers make_instance: words, phrases for plain strings, numbers for numbers.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace forma::testing::detail {

/// A phrase of the prompt, with the index (in prompt_values::words) of the word after it,
/// which pads a string too short.
struct prompt_phrase {
    std::string text;
    std::size_t next_word = 0;
};

/// The prompt's values, in the prompt's order.
struct prompt_values {
    /// Runs of ASCII letters, digits and UTF-8 sequences; "forma" for a prompt with none.
    std::vector<std::string> words;
    /// A run of capitalised words (ASCII or Latin-1 capitals; at most four) or of lowercase
    /// words (at most three), with only spaces or tabs between them ("John Smith", "software
    /// engineer"). Here words join through inner hyphens and apostrophes ("35-year-old",
    /// "O'Brien"); stop words ("is", "the") and words holding a digit are no phrase and end
    /// one. A prompt of only those gives its words.
    std::vector<prompt_phrase> phrases;
    /// The first 64 numbers stated: runs of ASCII digits with an optional fraction ("2.5") and
    /// thousands separators ("1,000"), negative after a "-" that starts a word ("-3"), but not
    /// a run inside an identifier ("x86", "B12").
    std::vector<double> numbers;
};

prompt_values read_prompt(std::string_view prompt);

} // namespace forma::testing::detail
