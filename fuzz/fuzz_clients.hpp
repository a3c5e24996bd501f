// What the client fuzz targets share: a stand-in server on loopback (test/support's
// scripted_http_server) whose answers are a fuzz input's records, so that forma's MCP and A2A
// clients read them as they read a real server's: HTTP, JSON or an event stream, JSON-RPC,
// and the protocol's shapes. Input: a config byte, then records separated by 0x1e, the bodies
// the server answers with, in order; "$ID" in a record is the id of the request it answers and
// "$URL" the server's own URL, so that an answer can be one the client takes.
#pragma once

#include "fuzz_support.hpp"

#include "support/scripted_http_server.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace forma_fuzz {

/// The answers of an input: its records (fuzz_support.hpp's records()), as strings.
inline std::vector<std::string> answer_records(std::string_view bytes) {
    std::vector<std::string> out;
    for (const std::string_view r : records(bytes)) out.emplace_back(r);
    return out;
}

/// `text` with every `from` replaced by `to`.
inline std::string replaced(std::string text, std::string_view from, std::string_view to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
    return text;
}

/// The JSON-RPC id of a request body, as JSON text ("null" when it has none).
inline std::string request_id(std::string_view body) {
    boost::system::error_code ec;
    const boost::json::value v = boost::json::parse(body, ec);
    const boost::json::value* id = !ec && v.is_object() ? v.get_object().if_contains("id") : nullptr;
    return id ? boost::json::serialize(*id) : std::string("null");
}

/// The method of a JSON-RPC request body, or "".
inline std::string request_method(std::string_view body) {
    boost::system::error_code ec;
    const boost::json::value v = boost::json::parse(body, ec);
    const boost::json::value* m = !ec && v.is_object() ? v.get_object().if_contains("method") : nullptr;
    return m && m->is_string() ? std::string(m->get_string()) : std::string();
}

/// A record as the body of an answer: as it is, or as a stream (`as_events`) of one event per
/// part of the record between blank lines.
inline std::string answer_with(std::string_view body, bool as_events, int status = 200) {
    if (!as_events) return forma_test::scripted_http_server::response(status, "application/json", std::string(body));
    std::string events;
    for (;;) {
        const std::size_t end = body.find("\n\n");
        events += "data: " + replaced(std::string(body.substr(0, end)), "\n", "\ndata: ") + "\n\n";
        if (end == std::string_view::npos) break;
        body.remove_prefix(end + 2);
    }
    return forma_test::scripted_http_server::response(status, "text/event-stream", events);
}

/// What a client threw: a typed error (forma::error, or Boost.System's) whose message reads as a
/// sentence, valid UTF-8; anything else is a finding.
inline void check_thrown(std::exception_ptr thrown) {
    try {
        std::rethrow_exception(thrown);
    } catch (const forma::error& e) {
        check(valid_utf8_text(e.what()), "an error's message is not UTF-8");
    } catch (const boost::system::system_error& e) {
        check(valid_utf8_text(e.what()), "an error's message is not UTF-8");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz oracle: untyped exception escaped: %s\n", e.what());
        std::abort();
    } catch (...) {
        fail("an exception not derived from std::exception escaped");
    }
}

} // namespace forma_fuzz
