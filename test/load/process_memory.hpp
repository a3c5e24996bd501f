#pragma once
// What this process holds: heap bytes in use (exact, from the allocator) and resident pages
// (from the kernel; glibc keeps freed pages, so RSS alone cannot show memory given back).

#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <string>

// GCC says ASan is on with __SANITIZE_ADDRESS__, Clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define FORMA_LOAD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORMA_LOAD_UNDER_ASAN 1
#endif
#endif

#if defined(FORMA_LOAD_UNDER_ASAN)
// From ASan's runtime (GCC does not install <sanitizer/allocator_interface.h>).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace load {

#if defined(FORMA_LOAD_UNDER_ASAN)
inline constexpr bool under_asan = true;
#else
inline constexpr bool under_asan = false;
#endif

/// Bytes handed out by malloc and not yet freed (mmapped blocks included), or ASan's count of the
/// same.
inline std::size_t heap_in_use() {
#if defined(FORMA_LOAD_UNDER_ASAN)
    return __sanitizer_get_current_allocated_bytes();
#else
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#endif
}

/// A field of /proc/self/status in KiB ("VmRSS", "VmHWM"), or 0 when absent.
inline std::size_t status_kib(const std::string& field) {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.starts_with(field + ":")) return std::stoul(line.substr(field.size() + 1));
    return 0;
}

inline std::size_t rss_kib() {
    return status_kib("VmRSS");
}
/// The highest RSS so far.
inline std::size_t peak_rss_kib() {
    return status_kib("VmHWM");
}

/// Gives freed heap pages back to the system, so that RSS shows what is still in use.
inline void trim_heap() {
    malloc_trim(0);
}

/** Raises the soft limit of open descriptors to `wanted` (up to the hard limit).
    @return the soft limit now in force.
*/
inline rlim_t raise_file_limit(rlim_t wanted) {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
    if (limit.rlim_cur < wanted) {
        limit.rlim_cur =
            limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
        setrlimit(RLIMIT_NOFILE, &limit);
        getrlimit(RLIMIT_NOFILE, &limit);
    }
    return limit.rlim_cur;
}

} // namespace load
