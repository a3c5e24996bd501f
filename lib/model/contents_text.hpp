#pragma once

#include <forma/model/content.hpp>

#include <string>
#include <vector>

namespace forma::model_detail {

/// The text contents of a message or an update, joined (what their text() returns).
inline std::string text_of(const std::vector<content>& contents) {
    std::string out;
    for (const content& c : contents)
        if (const auto* t = std::get_if<text_content>(&c)) out += t->text;
    return out;
}

} // namespace forma::model_detail
