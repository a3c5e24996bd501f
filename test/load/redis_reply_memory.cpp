// The memory of a Redis reply is bounded by what has arrived, never by what a server announces:
// the peak RSS of this process while a hostile server announces huge replies and then stalls,
// or sends until the limit. One line per case; exits non-zero when a peak passes its bound
// (the bounds are checked without sanitizers, whose allocator keeps freed memory aside).
#include <forma/redis/client.hpp>
#include <forma/redis/redis_error.hpp>

#include "process_memory.hpp"
#include "support/fake_resp_server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

namespace asio = boost::asio;
constexpr std::size_t mib = 1024 * 1024;

// Lets VmHWM start again from the current RSS.
void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct outcome {
    std::string error; // the redis_error kind's message, or "none"
    std::size_t peak_growth_kib = 0;
};

// One command against a server that answers `answer` and then `filler` up to `filler_bytes`.
outcome measure(const std::string& answer, const std::string& filler, std::size_t filler_bytes,
                forma::redis::client_options options) {
    asio::io_context io;
    forma_test::fake_resp_server server(io, answer, filler, filler_bytes);
    options.port = server.port();
    options.client_name.clear(); // the command is the first one sent: the server's answer is its reply
    outcome result{"none"};
    {
        forma::redis::client redis(io.get_executor(), options);
        load::trim_heap();
        reset_peak_rss();
        const std::size_t before = load::rss_kib();
        asio::co_spawn(io, redis.execute(forma::redis::command("GET", "k")),
                       [&](std::exception_ptr e, const forma::redis::reply&) {
                           try {
                               if (e) std::rethrow_exception(e);
                           } catch (const forma::redis::redis_error& failure) {
                               result.error = failure.what();
                           }
                           io.stop();
                       });
        io.run_for(std::chrono::seconds(60));
        result.peak_growth_kib = load::peak_rss_kib() - before;
    }
    return result;
}

bool report(const char* name, const outcome& o, std::size_t bound_kib, const char* expected_error) {
    const bool error_ok = o.error.find(expected_error) != std::string::npos;
    const bool memory_ok = load::under_asan || o.peak_growth_kib <= bound_kib;
    std::printf("%-58s peak RSS +%7.1f MiB (bound %6.1f MiB%s): %s\n", name, o.peak_growth_kib / 1024.0,
                bound_kib / 1024.0, load::under_asan ? ", not checked under ASan" : "", o.error.c_str());
    return error_ok && memory_ok;
}

} // namespace

int main() {
    bool ok = true;
    const std::string megabyte_of_x(mib, 'x');
    std::string megabyte_of_integers;
    while (megabyte_of_integers.size() < mib) megabyte_of_integers += ":1\r\n";

    {
        forma::redis::client_options options; // the default limit, 512 MiB
        options.command_timeout = std::chrono::milliseconds(300);
        ok &= report("an array of 4,000,000 announced, then silence", measure("*4000000\r\n", {}, 0, options),
                     4 * 1024, "(command_timeout)");
    }
    if (load::under_asan) {
        std::printf("a 1 GB string announced, its bytes sent past the limit: not run under ASan (512 MiB through it)\n");
    } else {
        forma::redis::client_options options; // the default limit, 512 MiB
        options.command_timeout = std::chrono::seconds(60);
        ok &= report("a 1 GB string announced, its bytes sent past the limit",
                     measure("$1000000000\r\n", megabyte_of_x, 600 * mib, options),
                     (options.max_reply_bytes + 4 * mib) / 1024, "(max_reply_bytes)");
    }
    {
        forma::redis::client_options options;
        options.command_timeout = std::chrono::seconds(60);
        options.max_reply_bytes = 64 * mib;
        ok &= report("10,000,000 integers announced, sent past a 64 MiB limit",
                     measure("*10000000\r\n", megabyte_of_integers, 200 * mib, options),
                     (options.max_reply_bytes + 4 * mib) / 1024, "(max_reply_bytes)");
    }
    std::printf(ok ? "redis reply memory: every peak within its bound\n" : "redis reply memory: FAILED\n");
    return ok ? 0 : 1;
}
