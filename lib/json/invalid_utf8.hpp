#pragma once
// Finds text that is not UTF-8 in a JSON value: what serialize() would copy as it is,
// making JSON that a strict reader (a provider, an OTLP collector) rejects.

#include "json_text.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <vector>

namespace forma::json_detail {

struct invalid_utf8_text {
    /// JSON Pointer of the string, or of the object whose member name is bad: the
    /// path never holds the bad bytes.
    std::string path;
    bool in_member_name = false;
    std::size_t text_size = 0;
    /// Offset of the first bad byte in the text.
    std::size_t offset = 0;
};

/// The first string or member name that is not UTF-8, or nullopt. Walks with its own
/// stack: a user's values may nest deeply.
class invalid_utf8_finder {
public:
    std::optional<invalid_utf8_text> in(const boost::json::value& root) {
        if (auto bad = visit(root)) return bad;
        return walk();
    }
    std::optional<invalid_utf8_text> in(const boost::json::object& root) {
        stack_.push_back({&root, nullptr});
        return walk();
    }

private:
    struct frame {
        const boost::json::object* object; // one of object and array is set
        const boost::json::array* array;
        std::size_t next = 0; // the next member or element to visit
    };

    invalid_utf8_text found(std::string_view text, std::size_t offset, bool is_name) const {
        std::vector<json_detail::path_segment> innermost_first;
        for (std::size_t i = stack_.size() - (is_name ? 1 : 0); i-- > 0;) {
            const frame& f = stack_[i];
            if (f.object) innermost_first.push_back({std::string((f.object->begin() + (f.next - 1))->key())});
            else innermost_first.push_back({{}, f.next - 1, true});
        }
        return {json_detail::json_pointer(innermost_first), is_name, text.size(), offset};
    }

    std::optional<invalid_utf8_text> visit(const boost::json::value& v) {
        if (const auto* text = v.if_string()) {
            if (const std::size_t at = invalid_utf8_offset(*text); at != std::string_view::npos)
                return found(*text, at, false);
        } else if (v.is_object()) {
            stack_.push_back({&v.get_object(), nullptr});
        } else if (v.is_array()) {
            stack_.push_back({nullptr, &v.get_array()});
        }
        return std::nullopt;
    }

    std::optional<invalid_utf8_text> walk() {
        while (!stack_.empty()) {
            frame& top = stack_.back();
            if (top.object && top.next < top.object->size()) {
                const auto& member = *(top.object->begin() + static_cast<std::ptrdiff_t>(top.next++));
                if (const std::size_t at = invalid_utf8_offset(member.key()); at != std::string_view::npos)
                    return found(member.key(), at, true);
                if (auto bad = visit(member.value())) return bad;
            } else if (top.array && top.next < top.array->size()) {
                if (auto bad = visit((*top.array)[top.next++])) return bad;
            } else {
                stack_.pop_back();
            }
        }
        return std::nullopt;
    }

    std::vector<frame> stack_;
};

template <class Json>
std::optional<invalid_utf8_text> find_invalid_utf8(const Json& root) {
    return invalid_utf8_finder().in(root);
}

} // namespace forma::json_detail
