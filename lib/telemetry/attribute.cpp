#include <forma/telemetry/attribute.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <utility>

namespace forma::telemetry {

namespace {

// An owned name is one block: the reference count, then the characters.
using reference_count = std::atomic<std::size_t>;
static_assert(alignof(reference_count) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);

reference_count& count_of(const char* data) noexcept {
    return *std::launder(reinterpret_cast<reference_count*>(const_cast<char*>(data) - sizeof(reference_count)));
}

} // namespace

attribute_key::attribute_key(const std::string& name) : size_(static_cast<std::uint32_t>(name.size())), owned_(true),
                                                        hash_(hash_text(name)) {
    if (name.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("attribute name longer than 4 GiB");
    char* block = static_cast<char*>(::operator new(sizeof(reference_count) + name.size()));
    new (block) reference_count(1);
    std::memcpy(block + sizeof(reference_count), name.data(), name.size());
    data_ = block + sizeof(reference_count);
}

attribute_key::attribute_key(const attribute_key& other) noexcept
    : data_(other.data_), size_(other.size_), owned_(other.owned_), hash_(other.hash_) {
    if (owned_) count_of(data_).fetch_add(1, std::memory_order_relaxed);
}

attribute_key::attribute_key(attribute_key&& other) noexcept
    : data_(std::exchange(other.data_, "")), size_(std::exchange(other.size_, 0)),
      owned_(std::exchange(other.owned_, false)), hash_(std::exchange(other.hash_, hash_text(""))) {}

attribute_key& attribute_key::operator=(attribute_key other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(owned_, other.owned_);
    std::swap(hash_, other.hash_);
    return *this;
}

attribute_key::~attribute_key() {
    if (owned_ && count_of(data_).fetch_sub(1, std::memory_order_acq_rel) == 1) {
        char* block = const_cast<char*>(data_) - sizeof(reference_count);
        std::launder(reinterpret_cast<reference_count*>(block))->~reference_count();
        ::operator delete(block);
    }
}

const attribute_value* find(const attribute_list& attributes, std::string_view key) noexcept {
    auto it = std::find_if(attributes.begin(), attributes.end(), [&](const attribute& a) { return a.key == key; });
    return it == attributes.end() ? nullptr : &it->value;
}

void set(attribute_list& attributes, attribute_key key, attribute_value value) {
    auto it = std::find_if(attributes.begin(), attributes.end(), [&](const attribute& a) { return a.key == key; });
    if (it != attributes.end())
        it->value = std::move(value);
    else
        attributes.push_back({std::move(key), std::move(value)});
}

} // namespace forma::telemetry
