#include <forma/json/detail/writer.hpp>

#include "json_text.hpp"
#include "string_escapes.hpp"

#include <boost/json/parse.hpp>

namespace forma::json_detail {

bool writer::write_string(std::string_view s) {
    out += '"';
    const char* p = s.data();
    const char* end = p + s.size();
    for (;;) {
        const char* run = p;
        p = find_string_special(p, end);
        out.append(run, p);
        if (p == end) break;
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x80) { // a run of them, as in CJK text, checked and then copied at once
            const char* const run_start = p;
            do {
                const int n = utf8_sequence_length(p, end);
                if (n == 0) return fail("string is not valid UTF-8 (byte " + std::to_string(p - s.data()) + ")");
                p += n;
            } while (p != end && static_cast<unsigned char>(*p) >= 0x80);
            out.append(run_start, p);
            continue;
        }
        append_escaped(out, c);
        ++p;
    }
    out += '"';
    return true;
}

void append_json_string(std::string& out, std::string_view s) {
    writer w(out);
    if (invalid_utf8_offset(s) == std::string_view::npos) (void)w.write_string(s);
    else (void)w.write_string(valid_utf8(s));
}

bool writer::fail(std::string reason) {
    reason_ = std::move(reason);
    path_.clear();
    return false;
}

bool writer::push_key(std::string_view key) { return unwind_through(path_, path_segment::member(key)); }

bool writer::push_index(std::size_t index) { return unwind_through(path_, path_segment::element(index)); }

json_error writer::take_error() {
    return json_error(json_pointer(path_), "cannot write JSON: " + reason_);
}

boost::json::value parse_value(std::string_view json) { return boost::json::parse(json); }

} // namespace forma::json_detail
