// boost::json::value as a mapped type (any JSON value): read with the reader's own checks and
// then built by Boost.JSON, written by the writer's own rules for strings and numbers.
#include <forma/json/detail/value_reader.hpp>
#include <forma/json/detail/writer.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <limits>

namespace forma::json_detail {

bool read_json_value(reader& r, boost::json::value& out) {
    const char* const start = r.p;
    // The whole check (grammar, UTF-8, depth, duplicate members) is the reader's, as for any
    // other value; Boost.JSON only builds what passed it.
    if (!r.skip_value()) return false;
    boost::json::parse_options unlimited;
    unlimited.max_depth = std::numeric_limits<std::size_t>::max(); // the reader's limit held
    boost::system::error_code ec;
    boost::json::value read = boost::json::parse(std::string_view(start, static_cast<std::size_t>(r.p - start)), ec, out.storage(), unlimited);
    if (ec) return r.fail("the value could not be kept: " + ec.message());
    out = std::move(read);
    return true;
}

bool write_json_value(writer& w, const boost::json::value& v) {
    switch (v.kind()) {
    case boost::json::kind::null: w.put("null"); return true;
    case boost::json::kind::bool_: w.put(v.get_bool() ? std::string_view("true") : std::string_view("false")); return true;
    case boost::json::kind::int64: write_integer(w, v.get_int64()); return true;
    case boost::json::kind::uint64: write_integer(w, v.get_uint64()); return true;
    case boost::json::kind::double_: return write_float(w, v.get_double());
    case boost::json::kind::string: return w.write_string(v.get_string());
    case boost::json::kind::array: {
        w.put('[');
        std::size_t i = 0;
        for (const boost::json::value& element : v.get_array()) {
            if (i) w.put(',');
            if (!write_json_value(w, element)) return w.push_index(i);
            ++i;
        }
        w.put(']');
        return true;
    }
    case boost::json::kind::object: {
        w.put('{');
        bool first = true;
        for (const boost::json::key_value_pair& member : v.get_object()) {
            if (!first) w.put(',');
            first = false;
            if (!w.write_string(member.key())) return false;
            w.put(':');
            if (!write_json_value(w, member.value())) return w.push_key(member.key());
        }
        w.put('}');
        return true;
    }
    }
    return w.fail("a boost::json::value of no known kind");
}

} // namespace forma::json_detail
