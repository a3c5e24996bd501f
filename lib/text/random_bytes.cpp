#include "random_bytes.hpp"

#include <forma/error.hpp>

#include <sys/mman.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace forma::text_detail {

namespace {

void draw(unsigned char* out, std::size_t size) {
    while (size > 0) {
        const ssize_t got = getrandom(out, size, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw error(std::string("cannot draw random bytes for an id: getrandom failed: ") + std::strerror(errno));
        }
        out += got;
        size -= static_cast<std::size_t>(got);
    }
}

// One page of drawn bytes, mapped apart so that it can be wiped on fork: a child reads `left` as
// 0 and draws anew.
struct pool_page {
    std::size_t left;
    unsigned char bytes[4096 - sizeof(std::size_t)];
};

class byte_pool {
public:
    byte_pool() {
        void* mapped = mmap(nullptr, sizeof(pool_page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) return;
        if (madvise(mapped, sizeof(pool_page), MADV_WIPEONFORK) != 0) { // a kernel before 4.14: no pool
            munmap(mapped, sizeof(pool_page));
            return;
        }
        page_ = static_cast<pool_page*>(mapped); // zero-filled: empty
    }
    byte_pool(const byte_pool&) = delete;
    byte_pool& operator=(const byte_pool&) = delete;
    ~byte_pool() {
        if (page_) munmap(page_, sizeof(pool_page));
    }

    void take(unsigned char* out, std::size_t size) {
        if (!page_ || size > sizeof page_->bytes) return draw(out, size);
        if (page_->left < size) {
            draw(page_->bytes, sizeof page_->bytes);
            page_->left = sizeof page_->bytes;
        }
        unsigned char* const from = page_->bytes + page_->left - size;
        std::memcpy(out, from, size);
        std::memset(from, 0, size);
        page_->left -= size;
    }

private:
    pool_page* page_ = nullptr;
};

} // namespace

void random_bytes(unsigned char* out, std::size_t size) {
    thread_local byte_pool pool;
    pool.take(out, size);
}

} // namespace forma::text_detail
