#include "reply_reader.hpp"

#include <hiredis/hiredis.h>
#include <hiredis/read.h>

#include <new>
#include <vector>

namespace forma::redis::detail {

namespace {

// hiredis builds a reply top-down: an array first, then each element with the array as its
// parent. The root is allocated; elements live in their parent's vector, sized when it is made.
reply* place(const redisReadTask* task, reply&& value) noexcept {
    try {
        if (task->parent) {
            auto& parent = *static_cast<reply*>(task->parent->obj);
            reply& slot = parent.elements[static_cast<std::size_t>(task->idx)];
            slot = std::move(value);
            return &slot;
        }
        return new reply(std::move(value));
    } catch (...) {
        return nullptr; // hiredis reports out of memory
    }
}

void* create_string(const redisReadTask* task, char* text, std::size_t size) {
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

void* create_array(const redisReadTask* task, int elements) {
    reply value;
    value.kind = reply_kind::array;
    try {
        value.elements.resize(static_cast<std::size_t>(elements < 0 ? 0 : elements));
    } catch (...) {
        return nullptr;
    }
    return place(task, std::move(value));
}

void* create_integer(const redisReadTask* task, long long number) {
    reply value;
    value.kind = reply_kind::integer;
    value.integer = number;
    return place(task, std::move(value));
}

void* create_nil(const redisReadTask* task) { return place(task, reply{}); }

// hiredis frees only roots (a finished reply it still holds, or one cut short by an error).
void free_object(void* object) { delete static_cast<reply*>(object); }

redisReplyObjectFunctions reply_functions{&create_string, &create_array, &create_integer, &create_nil, &free_object};

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

reply_reader::reply_reader() : reader_(redisReaderCreateWithFunctions(&reply_functions)) {
    if (!reader_) throw std::bad_alloc();
}

reply_reader::~reply_reader() = default;

bool reply_reader::feed(const char* data, std::size_t size) {
    return redisReaderFeed(reader_.get(), data, size) == REDIS_OK;
}

reply_reader::status reply_reader::next(reply& out) {
    void* object = nullptr;
    if (redisReaderGetReply(reader_.get(), &object) != REDIS_OK) return status::failed;
    if (!object) return status::need_more;
    std::unique_ptr<reply> whole(static_cast<reply*>(object));
    out = std::move(*whole);
    return status::reply;
}

std::string reply_reader::error() const { return reader_->errstr; }

std::size_t reply_reader::buffered() const noexcept { return reader_->len - reader_->pos; }

} // namespace forma::redis::detail
