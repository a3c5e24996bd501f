#pragma once

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace forma_openai_test {

/// A file of test/openai/fixtures, e.g. "responses/text.json".
inline std::string fixture(const std::string& name) {
    const std::string path = std::string(FORMA_OPENAI_FIXTURES) + "/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read fixture " + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace forma_openai_test
