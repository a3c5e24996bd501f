#include <forma/json/detail/incremental_tokenizer.hpp>
#include <forma/json/detail/partial_builder.hpp>
#include <forma/json/detail/reader.hpp>

#include "string_escapes.hpp"

#include <algorithm>

namespace forma::json_detail {

namespace {

bool is_digit(char c) noexcept { return static_cast<unsigned>(c - '0') <= 9; }
bool is_number_char(char c) noexcept {
    return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// Most writers put one space after ':' and ','; stepping over it here saves a turn of the
// token loop for it.
void skip_one_space(const char*& p, const char* end) noexcept {
    if (p != end && *p == ' ') ++p;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    char bytes[4];
    out.append(bytes, write_utf8(bytes, cp));
}

// Room for a string value that a split cut: it usually goes on (descriptions, long texts), so it
// grows to 128 bytes at once (64 measured 1.5 % dearer on the catalog), then doubles.
[[gnu::noinline]] void make_room(std::string& out, std::size_t more) {
    out.reserve(std::max({out.size() + more, 2 * out.capacity(), std::size_t{128}}));
}

// Appends 1 to 16 bytes of text as a fixed copy of 16 bytes cut to length after (two moves, where
// a copy of any length is a call to memcpy), where the string has room for 16 more (a string cut
// before), or 1 to 15 bytes as a fixed copy of 15 where it has room for 15 (a fresh string's own
// buffer): the text is the tokenizer's padded input, so 16 bytes can be read. False when neither
// applies.
inline bool append_short(std::string& out, std::string_view text) {
    const std::size_t room = out.capacity() - out.size();
    const std::size_t size = out.size() + text.size();
    if (text.size() - 1 < 16 && room >= 16) {
        out.append(text.data(), 16);
    } else if (text.size() - 1 < 15 && room >= 15) {
        out.append(text.data(), 15);
    } else {
        return false;
    }
    out.resize(size);
    return true;
}

// Appends a string value's whole text to its fresh string: up to 15 bytes into the string's own
// buffer as append_short does (written apart from it: sharing its branches measured 1-2 % more
// instructions a read), longer text by a copy of its length.
inline void append_whole(std::string& out, std::string_view text) {
    if (text.size() - 1 < 15 && out.capacity() - out.size() >= 15) {
        const std::size_t size = out.size() + text.size();
        out.append(text.data(), 15);
        out.resize(size);
    } else {
        out.append(text);
    }
}

// Appends the text a split cut, of a string value or a member name (a short one stays in place).
inline void append_cut(std::string& out, std::string_view text) {
    if (append_short(out, text)) return;
    if (out.capacity() - out.size() < text.size()) make_room(out, text.size());
    out.append(text);
}

// Whether a short piece (at most 16 bytes, followed by padding) is all plain string text: one
// 16-byte mask, without a scan loop whose exit depends on where the piece was cut.
bool is_plain_short_text(const char* p, std::size_t n) noexcept {
#if defined(__SSE2__)
    return (string_special_mask(p) & ((1u << n) - 1)) == 0;
#else
    return find_string_special_padded(p, p + n) == p + n;
#endif
}

// Bytes a UTF-8 sequence led by `c` has in all (RFC 3629), 0 when `c` cannot lead one.
int utf8_length(unsigned char c) noexcept {
    if (c >= 0xC2 && c < 0xE0) return 2;
    if (c >= 0xE0 && c < 0xF0) return 3;
    if (c >= 0xF0 && c < 0xF5) return 4;
    return 0;
}

} // namespace

incremental_tokenizer::incremental_tokenizer(partial_builder& sink, std::size_t max_depth,
                                             std::size_t max_string_length)
    : sink_(sink), max_depth_(max_depth), max_string_length_(max_string_length) {}

bool incremental_tokenizer::fail(const char* what) {
    if (state_ != state::failed) error_ = what;
    state_ = state::failed;
    return false;
}

bool incremental_tokenizer::value_done() {
    state_ = stack_.empty() ? state::done : state::after_value;
    return true;
}

bool incremental_tokenizer::begin_value(char c) {
    const std::size_t at = token_begin_;
    switch (c) {
    case '{':
    case '[':
        if (stack_.size() >= max_depth_) return fail("nesting too deep");
        stack_.push_back(c);
        state_ = c == '{' ? state::first_member_or_close : state::value;
        if (!sink_.open(c, at)) return fail("");
        return true;
    case 't': literal_ = "true"; break;
    case 'f': literal_ = "false"; break;
    case 'n': literal_ = "null"; break;
    default:
        if (c == '-' || is_digit(c)) {
            state_ = state::number; // read_number reads it from its first character
            text_.clear();
            return true;
        }
        return fail("expected a value");
    }
    state_ = state::literal;
    literal_matched_ = 1;
    return true;
}

// Most string values are plain and whole in the piece: read at once, without the string state.
// `piece` is where the piece begins, for the string's end offset.
bool incremental_tokenizer::read_string_value(const char*& p, const char* end, const char* piece) {
    std::string* out;
    if (!sink_.begin_string(token_begin_, out)) return fail("");
    ++p;
    const char* const close = find_string_special_padded(p, end);
    if (close == end || *close != '"') {
        begin_string_text(out, state::string);
        return go_on_in_string(p, close, end);
    }
    const std::string_view text(p, static_cast<std::size_t>(close - p));
    p = close + 1;
    // Checked before the copy: a long string in one piece is not copied to be refused.
    if (!string_within_limit((out ? out->size() : 0) + text.size())) return false;
    if (out) append_whole(*out, text);
    if (!sink_.end_string(offset_ + static_cast<std::size_t>(p - piece))) return fail("");
    return value_done();
}

void incremental_tokenizer::begin_string_text(std::string* out, state in) {
    out_ = out ? out : &text_;
    state_ = in;
    string_state_ = in_string::text;
    text_.clear();
}

// A string's text from p, scanned to `stop` (the end of the piece, or a byte the string state
// reads: an escape, UTF-8, a control character), is not scanned again: at the end it is appended
// as a cut, else held as the run the string state goes on from.
bool incremental_tokenizer::go_on_in_string(const char*& p, const char* stop, const char* end) {
    const std::string_view text(p, static_cast<std::size_t>(stop - p));
    p = stop;
    if (stop != end) {
        run_ = text;
        return true;
    }
    append_cut(*out_, text);
    return string_within_limit(out_->size());
}

bool incremental_tokenizer::end_string(std::size_t end) {
    hold_run();
    if (!string_within_limit(out_->size())) return false;
    text_.clear(); // the text of a value not kept
    if (!sink_.end_string(end)) return fail("");
    return value_done();
}

bool incremental_tokenizer::end_key() {
    std::string_view name = run_;
    if (!text_.empty()) {
        text_.append(run_);
        name = text_;
    }
    run_ = {};
    const bool ok = key_done(name);
    text_.clear();
    return ok;
}

bool incremental_tokenizer::key_done(std::string_view name) {
    if (!string_within_limit(name.size())) return false;
    state_ = state::colon;
    return sink_.key(name) || fail("");
}

void incremental_tokenizer::hold_run() {
    if (!append_short(*out_, run_)) out_->append(run_);
    run_ = {};
}

// Reads string text from p up to the closing quote (true, p after it) or the end of the
// piece (true, p == end); false on invalid text.
bool incremental_tokenizer::read_string(const char*& p, const char* end, bool& closed) {
    closed = false;
    while (p != end) {
        switch (string_state_) {
        case in_string::text: {
            // Plain text is kept as a view of the piece (run_) and copied once into *out_,
            // at an escape or at the end of the piece or string; a key not cut is not copied.
            const char* stop = find_string_special_padded(p, end);
            const char* const run_begin = run_.empty() ? p : run_.data();
            run_ = std::string_view(run_begin, run_.size() + static_cast<std::size_t>(stop - p));
            p = stop;
            if (p == end) return true;
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"') {
                ++p;
                closed = true;
                return true;
            }
            if (c == '\\') {
                hold_run();
                string_state_ = in_string::escape;
                ++p;
                break;
            }
            if (c < 0x20) return fail("control character in string");
            utf8_size_ = utf8_length(c);
            if (utf8_size_ == 0) return fail("invalid UTF-8 in string");
            if (end - p >= utf8_size_) { // the whole sequence is here: check it in place
                if (utf8_sequence_length(p, end) != utf8_size_) return fail("invalid UTF-8 in string");
                run_ = std::string_view(run_.data(), run_.size() + static_cast<std::size_t>(utf8_size_));
                p += utf8_size_;
                break;
            }
            hold_run();
            utf8_[0] = c;
            digits_ = 1; // bytes of the sequence read so far
            string_state_ = in_string::utf8;
            ++p;
            break;
        }
        case in_string::utf8: {
            const auto c = static_cast<unsigned char>(*p);
            if ((c & 0xC0) != 0x80) return fail("invalid UTF-8 in string");
            if (digits_ == 1) { // the second byte rules out overlongs, surrogates and > U+10FFFF
                const unsigned char lead = utf8_[0];
                if ((lead == 0xE0 && c < 0xA0) || (lead == 0xED && c >= 0xA0) || (lead == 0xF0 && c < 0x90) ||
                    (lead == 0xF4 && c >= 0x90))
                    return fail("invalid UTF-8 in string");
            }
            utf8_[digits_++] = c;
            ++p;
            if (digits_ == utf8_size_) {
                out_->append(reinterpret_cast<const char*>(utf8_),
                             static_cast<std::size_t>(utf8_size_));
                string_state_ = in_string::text;
            }
            break;
        }
        case in_string::escape: {
            const char e = *p++;
            if (e == 'u') {
                string_state_ = in_string::hex;
                code_ = 0;
                digits_ = 4;
            } else if (const char unescaped = simple_escapes[static_cast<unsigned char>(e)]) {
                *out_ += unescaped;
                string_state_ = in_string::text;
            } else {
                return fail("invalid escape sequence in string");
            }
            break;
        }
        case in_string::hex:
        case in_string::low_hex: {
            const int h = hex_value(*p++);
            if (h < 0) return fail("invalid \\u escape: expected four hex digits");
            code_ = code_ * 16 + static_cast<std::uint32_t>(h);
            if (--digits_ > 0) break;
            if (string_state_ == in_string::hex) {
                if (code_ >= 0xDC00 && code_ <= 0xDFFF) return fail("invalid \\u escape: unpaired low surrogate");
                if (code_ >= 0xD800 && code_ <= 0xDBFF) {
                    high_ = code_;
                    string_state_ = in_string::low_backslash;
                    break;
                }
                append_utf8(*out_, code_);
            } else {
                if (code_ < 0xDC00 || code_ > 0xDFFF) return fail("invalid \\u escape: unpaired high surrogate");
                append_utf8(*out_, 0x10000 + ((high_ - 0xD800) << 10) + (code_ - 0xDC00));
            }
            string_state_ = in_string::text;
            break;
        }
        case in_string::low_backslash:
            if (*p++ != '\\') return fail("invalid \\u escape: unpaired high surrogate");
            string_state_ = in_string::low_u;
            break;
        case in_string::low_u:
            if (*p++ != 'u') return fail("invalid \\u escape: unpaired high surrogate");
            string_state_ = in_string::low_hex;
            code_ = 0;
            digits_ = 4;
            break;
        }
    }
    return true;
}

bool incremental_tokenizer::end_number(std::string_view text) {
    scanned_number number;
    if (scan_number(text.data(), text.data() + text.size(), number) != number_syntax::valid || number.text.size() != text.size())
        return fail("invalid number");
    return number_done(number);
}

bool incremental_tokenizer::number_done(const scanned_number& number) {
    const bool ok = sink_.number(number, token_begin_, token_begin_ + number.text.size());
    text_.clear();
    if (!ok) return fail("");
    return value_done();
}

// Reads a number from p (its first character, or where a cut left it): false on invalid JSON.
bool incremental_tokenizer::read_number(const char*& p, const char* end) {
    if (text_.empty()) { // begun in this piece: when it also ends here, scanned once in place
        scanned_number number;
        if (scan_number(p, end, number) == number_syntax::valid) {
            const char* const after = number.text.data() + number.text.size();
            if (after == end) { // it may go on in the next piece
                text_.append(p, end);
                p = end;
                return true;
            }
            if (!is_number_char(*after)) {
                p = after;
                return number_done(number);
            }
        }
    }
    const char* const start = p;
    while (p != end && is_number_char(*p)) ++p;
    if (p == end) {
        text_.append(start, p); // the number may go on in the next piece
        return true;
    }
    std::string_view number(start, static_cast<std::size_t>(p - start));
    if (!text_.empty()) {
        text_.append(number);
        number = text_;
    }
    return end_number(number); // the character after the number is read in the new state
}

bool incremental_tokenizer::feed(std::string_view piece) {
    // Many pieces of a long answer are plain text inside a string value: one scan, one copy. Both
    // ways are calls of their own, so that this one saves and restores no registers. A short
    // piece takes one branch on all three conditions: they depend on where the last piece was
    // cut, which no predictor learns.
    const bool in_value_text = (state_ == state::string) & (string_state_ == in_string::text);
    const char* const end = piece.data() + piece.size();
    const bool plain = piece.size() <= 16
                           ? in_value_text & is_plain_short_text(piece.data(), piece.size())
                           : in_value_text && find_string_special_padded(piece.data(), end) == end;
    if (plain) return append_value_text(piece);
    return read_tokens(piece);
}

bool incremental_tokenizer::append_value_text(std::string_view piece) {
    append_cut(*out_, piece);
    offset_ += piece.size();
    return string_within_limit(out_->size());
}

bool incremental_tokenizer::read_tokens(std::string_view piece) {
    const char* p = piece.data();
    const char* const end = p + piece.size();
    auto at = [&](const char* q) { return offset_ + static_cast<std::size_t>(q - piece.data()); };
    while (p != end) {
        const char c = *p;
        switch (state_) {
        case state::failed: return false;
        case state::done:
            if (!is_blank(c)) return fail("unexpected characters after the JSON value");
            ++p;
            break;
        case state::string:
        case state::name: {
            bool closed;
            if (!read_string(p, end, closed)) return false;
            if (!closed) {
                // A value's text goes on now, so a long string shows as it streams; a key's
                // is kept in text_ until whole. One way for both: where a piece ends is random,
                // and a branch on it mispredicts.
                append_cut(*out_, run_);
                run_ = {};
                if (!string_within_limit(out_->size())) return false;
                break;
            }
            if (state_ == state::name) {
                if (!end_key()) return false;
            } else if (!end_string(at(p))) {
                return false;
            }
            break;
        }
        case state::number:
            if (!read_number(p, end)) return false;
            break;
        case state::literal:
            if (c != literal_[literal_matched_]) return fail("invalid literal");
            ++p;
            if (++literal_matched_ == literal_.size()) {
                if (!sink_.literal(literal_[0], token_begin_, at(p))) return fail("");
                value_done();
            }
            break;
        default:
            if (is_blank(c)) {
                ++p;
                break;
            }
            switch (state_) {
            case state::value:
                if (c == ']' && !stack_.empty() && stack_.back() == '[' && just_opened_) {
                    just_opened_ = false;
                    stack_.pop_back();
                    ++p;
                    if (!sink_.close(']', at(p))) return fail("");
                    value_done();
                    break;
                }
                just_opened_ = false;
                token_begin_ = at(p);
                if (c == '"') {
                    if (!read_string_value(p, end, piece.data())) return false;
                    break;
                }
                if (!begin_value(c)) return false;
                if (state_ == state::number) {
                    if (!read_number(p, end)) return false;
                    break;
                }
                ++p;
                just_opened_ = c == '[';
                break;
            case state::first_member_or_close:
                if (c == '}') {
                    stack_.pop_back();
                    ++p;
                    if (!sink_.close('}', at(p))) return fail("");
                    value_done();
                    break;
                }
                [[fallthrough]];
            case state::member: {
                if (c != '"') return fail("expected a member name in double quotes");
                ++p;
                // Most names are plain and whole in the piece: read at once, with the ':' after.
                const char* const close = find_string_special_padded(p, end);
                if (close != end && *close == '"') {
                    if (!key_done(std::string_view(p, static_cast<std::size_t>(close - p))))
                        return false;
                    p = close + 1;
                    if (p != end && *p == ':') {
                        ++p;
                        skip_one_space(p, end);
                        state_ = state::value;
                    }
                    break;
                }
                begin_string_text(nullptr, state::name); // a name is kept in text_ until whole
                if (!go_on_in_string(p, close, end)) return false;
                break;
            }
            case state::colon:
                if (c != ':') return fail("expected ':' after a member name");
                ++p;
                skip_one_space(p, end);
                state_ = state::value;
                break;
            case state::after_value:
                if (c == ',') {
                    ++p;
                    skip_one_space(p, end);
                    state_ = stack_.back() == '{' ? state::member : state::value;
                    break;
                }
                if (c == (stack_.back() == '{' ? '}' : ']')) {
                    stack_.pop_back();
                    ++p;
                    if (!sink_.close(c, at(p))) return fail("");
                    value_done();
                    break;
                }
                return fail(stack_.back() == '{' ? "expected ',' or '}' after a member value"
                                                 : "expected ',' or ']' after an array element");
            default: break;
            }
        }
    }
    offset_ += piece.size();
    return state_ != state::failed;
}

bool incremental_tokenizer::finish() {
    if (state_ == state::number && stack_.empty()) return end_number(text_);
    if (state_ == state::failed) return false;
    if (state_ != state::done) return fail("unexpected end of input");
    return true;
}

} // namespace forma::json_detail
