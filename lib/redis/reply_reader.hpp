#pragma once
// RESP2 through hiredis: commands formatted by redisFormatCommandArgv, replies parsed by its
// reader straight into forma::redis::reply trees (no redisReply in between).

#include <forma/redis/command.hpp>
#include <forma/redis/reply.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

struct redisReader;

namespace forma::redis::detail {

/// Appends `cmd` to `out` as RESP. @throws std::bad_alloc when hiredis cannot allocate.
void append_command(std::string& out, const command& cmd);

/** Replies read from a server's bytes, the memory of each bounded by what has arrived.

    One reply may hold at most `max_bytes`, counting its bytes waiting in the reader and the
    values made of them (each element's node and text) together: a server announcing a huge
    array or string costs nothing until the bytes arrive, and one that sends them fails the
    reader (too_large()) before the reply's memory passes the limit.
*/
class reply_reader {
public:
    explicit reply_reader(std::size_t max_bytes);
    ~reply_reader();
    reply_reader(const reply_reader&) = delete;
    reply_reader& operator=(const reply_reader&) = delete;

    /// Adds bytes read from the server; false when the reader has failed (see error() and too_large()).
    bool feed(const char* data, std::size_t size);

    enum class status { reply, need_more, failed };
    /// Takes the next whole reply into `out` when there is one.
    status next(reply& out);

    /// Why the reader failed: hiredis's description of the bad bytes.
    std::string error() const;
    /// Whether it failed because a reply would take more than max_bytes.
    bool too_large() const noexcept { return too_large_; }

    /// Bytes fed and not yet part of a whole reply.
    std::size_t buffered() const noexcept;
    /// The memory of the reply being read: its values made so far, and the bytes buffered.
    std::size_t reply_bytes() const noexcept { return made_ + buffered(); }

private:
    struct free_reader {
        void operator()(redisReader* r) const noexcept;
    };
    friend struct reply_building;

    std::unique_ptr<redisReader, free_reader> reader_;
    std::size_t max_bytes_;
    std::size_t made_ = 0; // bytes of the values of the reply being read
    bool too_large_ = false;
};

} // namespace forma::redis::detail
