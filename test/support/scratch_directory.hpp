#pragma once
// A fresh directory under the system's temporary one, removed with what it holds when this
// goes: a member of a fixture that throws later in its constructor still removes it.

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include <stdlib.h>

namespace forma_test {

class scratch_directory {
public:
    /// `prefix` names the directory, e.g. "forma-redis" (a random suffix follows).
    explicit scratch_directory(const std::string& prefix) {
        std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        if (!::mkdtemp(pattern.data())) throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
        path_ = pattern;
    }
    ~scratch_directory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    scratch_directory(const scratch_directory&) = delete;
    scratch_directory& operator=(const scratch_directory&) = delete;

    const std::filesystem::path& path() const noexcept { return path_; }

    /// Writes the file `name` holding `text`; returns its path.
    std::filesystem::path file(const std::string& name, const std::string& text) const {
        const std::filesystem::path file = path_ / name;
        std::ofstream out(file, std::ios::binary);
        out << text;
        if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
        return file;
    }

private:
    std::filesystem::path path_;
};

} // namespace forma_test
