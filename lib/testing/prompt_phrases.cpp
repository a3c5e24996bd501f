// A prompt cut into the words, phrases and numbers make_instance's values are made of.
#include "prompt_phrases.hpp"

#include "../text/ascii.hpp"

#include <forma/json/detail/constraints.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>

namespace forma::testing::detail {
namespace {

using text_detail::to_lower;

bool is_word_byte(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

// Words that make no value on their own: a plain string is never one of them, and they end a phrase.
constexpr std::string_view stop_words[] = {
    "a", "an", "the", "and", "or", "but", "nor", "so", "yet", "of", "in", "on", "at", "to", "from", "for",
    "with", "by", "as", "into", "onto", "about", "over", "under", "after", "before", "between", "through",
    "during", "without", "within", "upon", "via", "per", "than", "then", "is", "are", "was", "were", "be",
    "been", "being", "am", "do", "does", "did", "has", "have", "had", "would", "shall", "should", "could",
    "might", "i", "me", "my", "you", "your", "he", "him", "his", "she", "her", "it", "its", "we", "us", "our",
    "they", "them", "their", "this", "that", "these", "those", "who", "whom", "whose", "which", "what",
    "when", "where", "why", "how", "there", "here", "not", "no", "yes", "if", "also", "just", "very", "too",
    "all", "any", "some", "each", "every", "both", "only", "please", "it's", "i'm", "he's", "she's",
    "that's", "there's", "let's", "don't"};

// Words a phrase may hold: capitalised ones (a name, "John Smith") or lowercase ones ("software engineer").
constexpr std::size_t max_capitalised_phrase = 4;
constexpr std::size_t max_lowercase_phrase = 3;

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// Whether a word starts with a capital letter: ASCII, or Latin-1's in UTF-8 (U+00C0 to U+00DE but U+00D7).
bool is_capitalised(std::string_view w) {
    if (w.empty()) return false;
    const auto c = static_cast<unsigned char>(w[0]);
    if (c >= 'A' && c <= 'Z') return true;
    if (c != 0xC3 || w.size() < 2) return false;
    const auto d = static_cast<unsigned char>(w[1]);
    return d >= 0x80 && d <= 0x9E && d != 0x97;
}

struct phrase {
    std::string text;
    std::size_t end = 0; // the offset in the prompt just past it
};

/* The phrases of `prompt`, in order: a run of capitalised words (at most four) or of lowercase
   words (at most three), with nothing but spaces or tabs between them, is one phrase ("John
   Smith", "software engineer"). Words are runs of letters, digits and UTF-8 sequences, joined
   through inner hyphens and apostrophes ("35-year-old", "O'Brien"). A word holding a digit
   ("35-year-old", "3rd") or a stop word ("is", "the") is no phrase and ends one. */
std::vector<phrase> phrases_of(std::string_view prompt) {
    struct token {
        std::string_view text;
        std::size_t offset = 0;
        bool eligible = false;
        bool capitalised = false;
        bool joined_to_next = false; // only spaces or tabs lie between it and the next token
    };
    std::vector<token> tokens;
    for (std::size_t i = 0; i < prompt.size();) {
        if (!is_word_byte(static_cast<unsigned char>(prompt[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < prompt.size()) {
            if (is_word_byte(static_cast<unsigned char>(prompt[j]))) ++j;
            else if ((prompt[j] == '-' || prompt[j] == '\'') && j + 1 < prompt.size() &&
                     is_word_byte(static_cast<unsigned char>(prompt[j + 1])))
                j += 2;
            else
                break;
        }
        token t{prompt.substr(i, j - i), i};
        const bool has_digit = std::any_of(t.text.begin(), t.text.end(), is_ascii_digit);
        const std::string lower = to_lower(std::string(t.text));
        const bool stop = std::find(std::begin(stop_words), std::end(stop_words), lower) != std::end(stop_words);
        t.eligible = !has_digit && !stop && json_detail::count_code_points(t.text) > 0;
        t.capitalised = is_capitalised(t.text);
        std::size_t k = j;
        while (k < prompt.size() && (prompt[k] == ' ' || prompt[k] == '\t')) ++k;
        t.joined_to_next = k > j && k < prompt.size() && is_word_byte(static_cast<unsigned char>(prompt[k]));
        tokens.push_back(t);
        i = j;
    }
    std::vector<phrase> phrases;
    for (std::size_t i = 0; i < tokens.size();) {
        if (!tokens[i].eligible) {
            ++i;
            continue;
        }
        const bool capitalised = tokens[i].capitalised;
        const std::size_t most = capitalised ? max_capitalised_phrase : max_lowercase_phrase;
        std::string text(tokens[i].text);
        std::size_t j = i + 1;
        for (; j < tokens.size() && j - i < most && tokens[j - 1].joined_to_next && tokens[j].eligible &&
               tokens[j].capitalised == capitalised;
             ++j)
            (text += ' ') += tokens[j].text;
        phrases.push_back({std::move(text), tokens[j - 1].offset + tokens[j - 1].text.size()});
        i = j;
    }
    return phrases;
}

// The prompt numbers a value may take: each number value looks at them all.
constexpr std::size_t max_prompt_numbers = 64;

/* The first max_prompt_numbers numbers `prompt` states, in order: runs of ASCII digits with an
   optional fraction ("2.5") and thousands separators ("1,000"), negative after a "-" that starts
   a word ("-3"), but not a run inside an identifier ("x86", "B12"). */
std::vector<double> numbers_of(std::string_view prompt) {
    std::vector<double> out;
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    for (std::size_t i = 0; i < prompt.size() && out.size() < max_prompt_numbers;) {
        if (!is_ascii_digit(prompt[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        std::string digits;
        while (j < prompt.size()) {
            if (is_ascii_digit(prompt[j])) {
                digits += prompt[j++];
            } else if (prompt[j] == ',' && j + 3 < prompt.size() && is_ascii_digit(prompt[j + 1]) &&
                       is_ascii_digit(prompt[j + 2]) && is_ascii_digit(prompt[j + 3]) &&
                       (j + 4 == prompt.size() || !is_ascii_digit(prompt[j + 4]))) {
                ++j; // a thousands separator
            } else {
                break;
            }
        }
        if (j + 1 < prompt.size() && prompt[j] == '.' && is_ascii_digit(prompt[j + 1])) {
            digits += prompt[j++];
            while (j < prompt.size() && is_ascii_digit(prompt[j])) digits += prompt[j++];
        }
        const bool in_identifier = i > 0 && (is_letter(prompt[i - 1]) || prompt[i - 1] == '_');
        const bool negative = i > 0 && prompt[i - 1] == '-' &&
                              (i == 1 || prompt[i - 2] == ' ' || prompt[i - 2] == '\t' || prompt[i - 2] == '\n' ||
                               prompt[i - 2] == '(');
        double x = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
        if (!in_identifier && ec == std::errc() && end == digits.data() + digits.size() && std::isfinite(x))
            out.push_back(negative ? -x : x);
        i = j;
    }
    return out;
}

} // namespace

prompt_values read_prompt(std::string_view prompt) {
    prompt_values out;
    std::vector<std::size_t> word_offsets;
    for (std::size_t i = 0; i < prompt.size();) {
        if (!is_word_byte(static_cast<unsigned char>(prompt[i]))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < prompt.size() && is_word_byte(static_cast<unsigned char>(prompt[j]))) ++j;
        // A word of stray continuation bytes has no code points: it could not pad a string.
        const std::string_view word = prompt.substr(i, j - i);
        if (json_detail::count_code_points(word) > 0) {
            out.words.emplace_back(word);
            word_offsets.push_back(i);
        }
        i = j;
    }
    if (out.words.empty()) out.words = {"forma"}; // an empty prompt still gives strings
    for (phrase& p : phrases_of(prompt)) {
        const auto after = std::lower_bound(word_offsets.begin(), word_offsets.end(), p.end);
        const auto next = static_cast<std::size_t>(after - word_offsets.begin()) % out.words.size();
        out.phrases.push_back({std::move(p.text), next});
    }
    if (out.phrases.empty()) // a prompt of stop words and numbers only: its words
        for (std::size_t i = 0; i < out.words.size(); ++i)
            out.phrases.push_back({out.words[i], (i + 1) % out.words.size()});
    out.numbers = numbers_of(prompt);
    return out;
}

} // namespace forma::testing::detail
