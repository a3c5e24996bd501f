#pragma once
// What chat_client_builder and agent_builder share: a caller's object held without owning it,
// and a list of decorator factories applied from the last to the first.

#include <forma/error.hpp>

#include <memory>
#include <string>
#include <vector>

namespace forma::chat_detail {

/// A shared_ptr to what the caller owns: nothing is deleted with it.
template <class T>
std::shared_ptr<T> not_owned(T& object) {
    return std::shared_ptr<T>(&object, [](T*) {});
}

/// Wraps `inner` in each factory's decorator, the first factory outermost.
/// @throws error naming `builder` when a factory returns nothing.
template <class T, class Factory>
std::shared_ptr<T> build_chain(std::shared_ptr<T> inner, const std::vector<Factory>& factories, const char* builder) {
    for (auto it = factories.rbegin(); it != factories.rend(); ++it) {
        inner = (*it)(std::move(inner));
        if (!inner) throw error(std::string("a ") + builder + " factory returned nothing");
    }
    return inner;
}

} // namespace forma::chat_detail
