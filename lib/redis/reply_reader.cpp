#include "reply_reader.hpp"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>

#include <algorithm>
#include <new>
#include <vector>

namespace forma::redis::detail {

// hiredis builds a reply top-down: an array first, then each element with the array as its
// parent, in order. The root is allocated; each element is appended to its parent's vector as it
// arrives (sized by the announced count only up to 16), and every byte made counts against the limit.
struct reply_building {
    static constexpr std::size_t min_element_bytes = 3; // the shortest element in RESP: "+\r\n"

    static reply_reader& reader_of(const redisReadTask* task) { return *static_cast<reply_reader*>(task->privdata); }

    // Counts `bytes` more for the reply being read; false (the reader fails) past the limit.
    static bool take(reply_reader& r, std::size_t bytes) noexcept {
        if (r.reply_bytes() + bytes > r.max_bytes_) {
            r.too_large_ = true;
            return false;
        }
        r.made_ += bytes;
        return true;
    }

    static reply* place(const redisReadTask* task, reply&& value) noexcept {
        reply_reader& r = reader_of(task);
        try {
            if (!task->parent) {
                if (!take(r, sizeof(reply))) return nullptr;
                return new reply(std::move(value));
            }
            auto& elements = static_cast<reply*>(task->parent->obj)->elements;
            const auto index = static_cast<std::size_t>(task->idx);
            if (const std::size_t capacity = elements.capacity(); index >= capacity) {
                const std::size_t grown = std::max<std::size_t>(index + 1, 2 * capacity);
                if (!take(r, (grown - capacity) * sizeof(reply))) return nullptr;
                elements.reserve(grown);
            }
            if (index == elements.size()) return &elements.emplace_back(std::move(value)); // hiredis's order
            if (index > elements.size()) elements.resize(index + 1);
            elements[index] = std::move(value);
            return &elements[index];
        } catch (...) {
            return nullptr; // hiredis reports out of memory
        }
    }

    static void* create_string(const redisReadTask* task, char* text, std::size_t size) {
        if (!take(reader_of(task), size)) return nullptr;
        reply value;
        value.kind = task->type == REDIS_REPLY_ERROR    ? reply_kind::error
                     : task->type == REDIS_REPLY_STATUS ? reply_kind::status
                                                        : reply_kind::string;
        try {
            value.text.assign(text, size);
        } catch (...) {
            return nullptr;
        }
        return place(task, std::move(value));
    }

    static void* create_array(const redisReadTask* task, int elements) {
        // A count that could never fit fails now.
        reply_reader& r = reader_of(task);
        if (elements > 0 && static_cast<std::size_t>(elements) > r.max_bytes_ / min_element_bytes) {
            r.too_large_ = true;
            return nullptr;
        }
        // Room at once for the elements whose bytes may have arrived (and for 16: most arrays are
        // short), never for what is only announced; more as they arrive.
        const std::size_t could_have_arrived = std::max<std::size_t>(r.buffered() / min_element_bytes, 16);
        const std::size_t room =
            std::min<std::size_t>(elements > 0 ? static_cast<std::size_t>(elements) : 0, could_have_arrived);
        if (!take(r, room * sizeof(reply))) return nullptr;
        reply value;
        value.kind = reply_kind::array;
        try {
            value.elements.reserve(room);
        } catch (...) {
            return nullptr;
        }
        return place(task, std::move(value));
    }

    static void* create_integer(const redisReadTask* task, long long number) {
        reply value;
        value.kind = reply_kind::integer;
        value.integer = number;
        return place(task, std::move(value));
    }

    static void* create_nil(const redisReadTask* task) { return place(task, reply{}); }

    // hiredis frees only roots (a finished reply it still holds, or one cut short by an error).
    static void free_object(void* object) { delete static_cast<reply*>(object); }
};

namespace {

redisReplyObjectFunctions reply_functions{&reply_building::create_string, &reply_building::create_array,
                                          &reply_building::create_integer, &reply_building::create_nil,
                                          &reply_building::free_object};

} // namespace

void append_command(std::string& out, const command& cmd) {
    const auto& arguments = cmd.arguments();
    std::vector<const char*> pointers;
    std::vector<std::size_t> sizes;
    pointers.reserve(arguments.size());
    sizes.reserve(arguments.size());
    for (const std::string& a : arguments) {
        pointers.push_back(a.data());
        sizes.push_back(a.size());
    }
    char* formatted = nullptr;
    const int size = redisFormatCommandArgv(&formatted, static_cast<int>(arguments.size()), pointers.data(), sizes.data());
    if (size < 0 || !formatted) throw std::bad_alloc();
    out.append(formatted, static_cast<std::size_t>(size));
    redisFreeCommand(formatted);
}

void reply_reader::free_reader::operator()(redisReader* r) const noexcept { redisReaderFree(r); }

reply_reader::reply_reader(std::size_t max_bytes)
    : reader_(redisReaderCreateWithFunctions(&reply_functions)), max_bytes_(max_bytes) {
    if (!reader_) throw std::bad_alloc();
    reader_->privdata = this;
}

reply_reader::~reply_reader() = default;

bool reply_reader::feed(const char* data, std::size_t size) {
    // Checked before the bytes are copied in: the limit holds as a peak, not only after it.
    if (reply_bytes() + size > max_bytes_) {
        too_large_ = true;
        return false;
    }
    return redisReaderFeed(reader_.get(), data, size) == REDIS_OK;
}

reply_reader::status reply_reader::next(reply& out) {
    void* object = nullptr;
    if (redisReaderGetReply(reader_.get(), &object) != REDIS_OK) return status::failed;
    if (!object) return status::need_more;
    std::unique_ptr<reply> whole(static_cast<reply*>(object));
    out = std::move(*whole);
    made_ = 0;
    return status::reply;
}

std::string reply_reader::error() const { return reader_->errstr; }

std::size_t reply_reader::buffered() const noexcept { return reader_->len - reader_->pos; }

} // namespace forma::redis::detail
