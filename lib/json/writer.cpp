#include <forma/json/detail/writer.hpp>

#include "json_text.hpp"
#include "string_escapes.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cstring>

namespace forma::json_detail {

void writer::grow(std::size_t n) {
    const auto at = static_cast<std::size_t>(cursor_ - out_.data());
    // Twice what this writer wrote, and at least 64 bytes: an append of one short string to a
    // long buffer fills no more than that.
    out_.resize(at + std::max(n, at - start_ + 64));
    cursor_ = out_.data() + at;
    limit_ = out_.data() + out_.size();
}

bool writer::write_string(std::string_view s) {
    const char* p = s.data();
    const char* const end = p + s.size();
    // Room for every byte as it is and both quotes; an escape asks for its 5 more bytes.
    char* o = room(s.size() + 2);
    *o++ = '"';
    for (;;) {
        const char* run = p;
        p = find_string_special_in(p, end);
        std::memcpy(o, run, static_cast<std::size_t>(p - run));
        o += p - run;
        if (p == end) break;
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x80) { // a run of them, as in CJK text, checked and then copied at once
            const char* const run = p;
            if (!skip_utf8_run(p, end)) return fail("string is not valid UTF-8 (byte " + std::to_string(p - s.data()) + ")");
            std::memcpy(o, run, static_cast<std::size_t>(p - run));
            o += p - run;
            continue;
        }
        cursor_ = o;
        o = write_escaped(room(static_cast<std::size_t>(end - p) + 6), c);
        ++p;
    }
    *o++ = '"';
    cursor_ = o;
    return true;
}

namespace {

// Text with something to escape or check: out of line, so that the plain path keeps a small frame.
[[gnu::noinline]] void write_escaped_string(writer& w, std::string_view s) {
    if (invalid_utf8_offset(s) == std::string_view::npos) (void)w.write_string(s);
    else (void)w.write_string(valid_utf8(s));
}

} // namespace

void append_json_string(std::string& out, std::string_view s) {
    if (find_string_special_in(s.data(), s.data() + s.size()) == s.data() + s.size()) {
        // Plain ASCII with nothing to escape, as ids, names and most short values are.
        out.reserve(out.size() + s.size() + 2);
        out.push_back('"');
        out.append(s);
        out.push_back('"');
        return;
    }
    writer w(out);
    write_escaped_string(w, s);
}

void write_json_string(writer& w, std::string_view s) {
    if (find_string_special_in(s.data(), s.data() + s.size()) != s.data() + s.size()) return write_escaped_string(w, s);
    char* o = w.room(s.size() + 2);
    *o++ = '"';
    std::memcpy(o, s.data(), s.size());
    o += s.size();
    *o++ = '"';
    w.advance(o);
}

bool writer::fail(std::string reason) {
    reason_ = std::move(reason);
    path_.clear();
    return false;
}

bool writer::push_key(std::string_view key) { return unwind_through(path_, path_segment::member(key)); }

bool writer::push_index(std::size_t index) { return unwind_through(path_, path_segment::element(index)); }

json_error writer::take_error() {
    cursor_ = out_.data() + start_; // nothing half-written is left behind
    return json_error(json_pointer(path_), "cannot write JSON: " + reason_);
}

boost::json::value parse_value(std::string_view json) { return boost::json::parse(json); }

} // namespace forma::json_detail
