#pragma once

#include <forma/json/detail/incremental_tokenizer.hpp>
#include <forma/json/detail/partial_builder.hpp>
#include <forma/json/detail/satisfies_constraints.hpp>
#include <forma/json/detail/wrapped_reading.hpp>
#include <forma/json/from_json.hpp>
#include <forma/json/json_error.hpp>
#include <forma/json/parse_options.hpp>
#include <forma/json/partial.hpp>

#include <boost/system/result.hpp>

#include <string_view>

namespace forma {

/** Reads a T from JSON that arrives in pieces (a model's streamed answer),
    keeping a partial<T> of what is known so far. Each byte is read once: n
    bytes cost O(n) however they are split, and a piece may end anywhere (inside
    an escape, a UTF-8 sequence, a number).

    `wrapped`: the answer may be `{"data": <T>}`, as run<T> asks for a T whose
    schema root is not an object (an answer that is a bare T is read too).

    The partial never checks constraints (a pattern, a minimum): they apply to
    whole values, so finish() checks them all, with the same errors as from_json.

        partial_reader<Person> reader;
        for (auto piece : pieces) {
            reader.feed(piece);
            show(reader.get()[&Person::name].value());
        }
        Person person = reader.finish().value();
*/
template <class T>
class partial_reader {
public:
    explicit partial_reader(bool wrapped = false, parse_options options = {})
        : options_(options), wrapped_(wrapped),
          builder_(json_detail::partial_access::slot_of(partial_), text_, wrapped),
          tokenizer_(builder_, options.max_depth + (wrapped ? 1 : 0), options.max_string_length) {}

    partial_reader(const partial_reader&) = delete;
    partial_reader& operator=(const partial_reader&) = delete;

    /** Reads the next piece. Returns false once the text is not JSON, or not the
        shape of a T: the partial then stays as it was and error() says what is wrong.
    */
    bool feed(std::string_view piece) {
        // Read in place: its padding speeds scans. Once reading failed, feed() reads nothing.
        return tokenizer_.feed(text_.append(piece));
    }

    /// What is known so far.
    const partial<T>& get() const noexcept { return partial_; }
    /// Everything fed so far.
    std::string_view text() const noexcept { return text_.view(); }
    /// Reading stopped at something that is not JSON or not a T.
    bool failed() const noexcept { return tokenizer_.failed(); }

    /** The T of the whole text, fully checked (constraints included), or the json_error
        from_json gives for it. When the partial holds the whole document it is the
        partial's value, its constraints checked; the text is read again only when that
        is not enough (a member skipped, a constraint broken, text missing or invalid).
    */
    boost::system::result<T, json_error> finish() const {
        if (tokenizer_.complete() && !builder_.skipped_members() && !options_.reject_unknown_members)
            if (auto value = partial_.to_value(); value && json_detail::satisfies_constraints(*value))
                return std::move(*value);
        auto read = wrapped_ ? json_detail::try_read_wrapped<T>(text(), options_) : try_from_json<T>(text(), options_);
        // A string stopped for its length may have no end yet, which from_json calls unterminated;
        // an error before that string (a broken constraint) stays as it is.
        const std::size_t long_string = tokenizer_.long_string_offset();
        if (!read && long_string != std::string::npos && read.error().offset() >= long_string &&
            read.error().offset() != json_error::npos)
            return json_error(read.error().path(), json_detail::string_too_long_reason(options_.max_string_length),
                              long_string);
        return read;
    }

    /// Why reading stopped (when failed()): the error from_json gives for the text so far.
    json_error error() const {
        auto r = finish();
        if (!r) return r.error();
        return json_error("", "invalid JSON: " + tokenizer_.error());
    }

private:
    parse_options options_;
    bool wrapped_;
    partial<T> partial_;
    json_detail::padded_text text_;
    json_detail::partial_builder builder_;
    json_detail::incremental_tokenizer tokenizer_;
};

} // namespace forma
