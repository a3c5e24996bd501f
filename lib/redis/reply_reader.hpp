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

class reply_reader {
public:
    reply_reader();
    ~reply_reader();
    reply_reader(const reply_reader&) = delete;
    reply_reader& operator=(const reply_reader&) = delete;

    /// Adds bytes read from the server; false (see error()) when the reader has failed.
    bool feed(const char* data, std::size_t size);

    enum class status { reply, need_more, failed };
    /// Takes the next whole reply into `out` when there is one.
    status next(reply& out);

    /// Why the reader failed: hiredis's description of the bad bytes.
    std::string error() const;
    /// Bytes fed and not yet part of a whole reply.
    std::size_t buffered() const noexcept;

private:
    struct free_reader {
        void operator()(redisReader* r) const noexcept;
    };
    std::unique_ptr<redisReader, free_reader> reader_;
};

} // namespace forma::redis::detail
