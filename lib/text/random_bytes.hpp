#pragma once
// Unpredictable bytes for the code in lib/: the ids forma hands out (MCP session ids, task,
// response and completion ids) must not be guessable from the ids a client has seen.

#include <cstddef>

namespace forma::text_detail {

/** Fills `size` bytes at `out` from the kernel's cryptographic generator (getrandom), drawn a page
    at a time into a pool of the calling thread's. A forked child finds its pool empty (the page is
    wiped on fork), so parent and child never hand out the same bytes; bytes handed out are
    erased from the pool.
    @throws error when the kernel gives none (getrandom failing, as under a seccomp filter).
*/
void random_bytes(unsigned char* out, std::size_t size);

} // namespace forma::text_detail
