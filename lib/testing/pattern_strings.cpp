// Strings made from an ECMA-262 pattern: a small reader of the common syntax and a random walk of it.
#include "pattern_strings.hpp"

#include "splitmix64.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

namespace forma::testing::detail {
namespace {

// The longest string generated from a pattern; past it a candidate is abandoned.
constexpr std::size_t max_generated_length = 4096;

struct regex_unsupported {};

class regex_parser {
public:
    explicit regex_parser(std::string_view p) : p_(p) {}
    pattern_alternatives parse() {
        auto alts = alternation();
        if (i_ != p_.size()) throw regex_unsupported{};
        return alts;
    }

private:
    static std::string all_printable() {
        std::string s;
        for (char c = ' '; c <= '~'; ++c) s += c;
        return s;
    }
    static std::string class_escape(char e) {
        std::string s;
        for (char c = ' '; c <= '~'; ++c) {
            const bool digit = c >= '0' && c <= '9';
            const bool word = digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
            if ((e == 'd' && digit) || (e == 'w' && word) || (e == 's' && c == ' ') ||
                (e == 'D' && !digit) || (e == 'W' && !word) || (e == 'S' && c != ' '))
                s += c;
        }
        return s;
    }
    bool more() const { return i_ < p_.size(); }

    pattern_alternatives alternation() {
        pattern_alternatives alts{sequence()};
        while (more() && p_[i_] == '|') {
            ++i_;
            alts.push_back(sequence());
        }
        return alts;
    }
    std::vector<pattern_node> sequence() {
        std::vector<pattern_node> seq;
        while (more() && p_[i_] != '|' && p_[i_] != ')') {
            pattern_node n;
            if (!atom(n)) continue; // an anchor
            quantifier(n);
            seq.push_back(std::move(n));
        }
        return seq;
    }
    bool atom(pattern_node& n) {
        const char c = p_[i_++];
        switch (c) {
        case '^': case '$': return false;
        case '.': n.chars = "abcxyz"; return true;
        case '(':
            if (more() && p_[i_] == '?') {
                if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') i_ += 2;
                else throw regex_unsupported{}; // lookaround, named groups
            }
            n.alts = alternation();
            if (!more() || p_[i_] != ')') throw regex_unsupported{};
            ++i_;
            return true;
        case '[': n.chars = char_class(); return true;
        case '\\': n.chars = escape(false); return true;
        case '*': case '+': case '?': case '{': case ')': throw regex_unsupported{};
        default: n.chars = std::string(1, c); return true;
        }
    }
    std::string escape(bool in_class) {
        if (!more()) throw regex_unsupported{};
        const char e = p_[i_++];
        if (std::string_view("dwsDWS").find(e) != std::string_view::npos) return class_escape(e);
        if (e == 'n') return "\n";
        if (e == 't') return "\t";
        if ((e >= '0' && e <= '9') || (!in_class && (e == 'b' || e == 'B')) || e == 'u' || e == 'x' ||
            e == 'p' || e == 'P' || e == 'k' || e == 'c')
            throw regex_unsupported{}; // backreferences, word boundaries, code escapes
        return std::string(1, e);
    }
    std::string char_class() {
        bool negated = false;
        if (more() && p_[i_] == '^') {
            negated = true;
            ++i_;
        }
        std::string set;
        bool first = true;
        while (more() && (p_[i_] != ']' || first)) {
            first = false;
            std::string item;
            if (p_[i_] == '\\') {
                ++i_;
                item = escape(true);
            } else {
                item = std::string(1, p_[i_++]);
            }
            if (item.size() == 1 && i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
                ++i_;
                char hi = p_[i_++];
                if (hi == '\\') throw regex_unsupported{};
                for (int c = static_cast<unsigned char>(item[0]); c <= static_cast<unsigned char>(hi); ++c)
                    set += static_cast<char>(c);
            } else {
                set += item;
            }
        }
        if (!more()) throw regex_unsupported{};
        ++i_; // ']'
        if (!negated) return set;
        std::string out;
        for (char c : all_printable())
            if (set.find(c) == std::string::npos) out += c;
        return out;
    }
    void quantifier(pattern_node& n) {
        if (!more()) return;
        const char c = p_[i_];
        constexpr std::size_t many = std::numeric_limits<std::size_t>::max();
        if (c == '?') n.min = 0, n.max = 1;
        else if (c == '*') n.min = 0, n.max = many;
        else if (c == '+') n.min = 1, n.max = many;
        else if (c == '{') {
            const std::size_t close = p_.find('}', i_);
            if (close == std::string_view::npos) throw regex_unsupported{};
            const std::string body(p_.substr(i_ + 1, close - i_ - 1));
            unsigned long lo = 0, hi = 0;
            char comma = 0;
            const int got = std::sscanf(body.c_str(), "%lu%c%lu", &lo, &comma, &hi);
            if (got == 1) n.min = n.max = lo;
            else if (got == 2 && comma == ',') n.min = lo, n.max = many;
            else if (got == 3 && comma == ',') n.min = lo, n.max = hi;
            else throw regex_unsupported{};
            i_ = close;
        } else {
            return;
        }
        ++i_;
        if (more() && p_[i_] == '?') ++i_; // lazy: same language
    }

    std::string_view p_;
    std::size_t i_ = 0;
};

// `extra` is how many repetitions past the minimum an unbounded quantifier takes.
void generate(const pattern_alternatives& alts, std::size_t extra, std::uint64_t& rng,
              std::string& out) {
    const auto& seq = alts[splitmix64(rng) % alts.size()];
    for (const auto& n : seq) {
        const std::size_t span = n.max - n.min;
        std::size_t count = n.min + std::min(span, extra);
        for (std::size_t k = 0; k < count; ++k) {
            if (out.size() > max_generated_length) return; // too long to be a candidate
            if (!n.alts.empty()) generate(n.alts, extra, rng, out);
            else if (!n.chars.empty()) out += n.chars[splitmix64(rng) % n.chars.size()];
            else return; // an empty class matches nothing
        }
    }
}

} // namespace

std::optional<pattern_alternatives> read_pattern(std::string_view source) {
    try {
        return regex_parser(source).parse();
    } catch (const regex_unsupported&) {
        return std::nullopt;
    }
}

std::string pattern_string(const pattern_alternatives& pattern, std::size_t extra, std::uint64_t& rng) {
    std::string out;
    generate(pattern, extra, rng, out);
    return out;
}

} // namespace forma::testing::detail
