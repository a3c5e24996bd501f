#include <forma/reflect/type_name.hpp>

namespace forma::reflect::detail {

std::string sanitize_schema_name(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '-';
        if (keep)
            out += c;
        else if (!out.empty() && out.back() != '_')
            out += '_'; // a run of anything else (including '_') becomes one '_'
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    if (out.size() > 64) out.resize(64);
    if (out.empty()) out = "schema";
    return out;
}

std::string_view unqualified(std::string_view name) {
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(') ++depth;
        else if (c == '>' || c == ')') --depth;
        else if (depth == 0 && c == ':' && i + 1 < name.size() && name[i + 1] == ':')
            start = i + 2;
    }
    return name.substr(start);
}

} // namespace forma::reflect::detail
