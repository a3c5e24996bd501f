// The reader expects an indented document's next line to be indented as the last one at the
// same depth, checks that in place and steps over it. Every indentation, expected or not, must
// read as the compact text does, and an error right after a run must be reported where it is.

#include <forma/json/from_json.hpp>
#include <forma/json/to_json.hpp>

#include <boost/describe.hpp>
#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct leaf {
    int id = 0;
    std::string name;
    std::vector<int> values;
    bool operator==(const leaf&) const = default;
};
BOOST_DESCRIBE_STRUCT(leaf, (), (id, name, values))

struct branch {
    std::vector<leaf> leaves;
    std::map<std::string, leaf> by_name;
    std::vector<std::vector<leaf>> nested;
    leaf first;
    std::optional<std::string> note;
    bool operator==(const branch&) const = default;
};
BOOST_DESCRIBE_STRUCT(branch, (), (leaves, by_name, nested, first, note))

branch sample() {
    branch b;
    for (int i = 0; i < 6; ++i) b.leaves.push_back({i, "leaf \"" + std::to_string(i) + "\"\n", std::vector<int>(i % 4, i)});
    b.by_name = {{"a", {1, "x", {}}}, {"b", {2, "y  z", {3, 4}}}};
    b.nested = {{}, {{7, "", {1}}}, {{8, "p", {}}, {9, "q", {2, 3}}}};
    b.first = {42, " spaced ", {5}};
    b.note = "  \n  ";
    return b;
}

struct node {
    int id = 0;
    std::vector<node> children;
    bool operator==(const node&) const = default;
};
BOOST_DESCRIBE_STRUCT(node, (), (id, children))

// `compact` re-laid with white space where JSON allows it: after an opening bracket or a comma,
// before a closing bracket, after a colon. A run is a line break and `step` spaces a depth,
// except with probability `odd` a run the reader cannot have expected.
std::string indent(const std::string& compact, std::size_t step, double odd, std::mt19937& rng) {
    std::uniform_real_distribution<double> chance(0, 1);
    auto run = [&](std::size_t depth) {
        std::string blank = "\n" + std::string(depth * step, ' ');
        if (chance(rng) < odd) {
            switch (rng() % 7) {
            case 0: blank += ' '; break;
            case 1: if (blank.size() > 1) blank.pop_back(); break;
            case 2: blank.back() = '\t'; break;
            case 3: blank.insert(0, "\r"); break;
            case 4: blank.insert(0, "\n"); break;
            case 5: blank.clear(); break;
            default: blank += std::string(40, ' '); break; // longer than any run expected
            }
        }
        return blank;
    };
    std::string out;
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < compact.size(); ++i) {
        const char c = compact[i];
        if (in_string) {
            out += c;
            if (c == '\\') out += compact[++i];
            else if (c == '"') in_string = false;
            continue;
        }
        const bool closer = c == '}' || c == ']';
        if (closer && i > 0 && compact[i - 1] != '{' && compact[i - 1] != '[') out += run(depth - 1);
        if (closer) --depth;
        out += c;
        if (c == '"') in_string = true;
        if (c == ':' && chance(rng) < 0.8) out += ' ';
        if (c == '{' || c == '[') {
            ++depth;
            if (compact[i + 1] != '}' && compact[i + 1] != ']') out += run(depth);
        }
        if (c == ',') out += run(depth);
    }
    return out;
}

TEST(indentation, every_indentation_reads_as_the_compact_text_does) {
    const branch expected = sample();
    const std::string compact = forma::to_json(expected);
    std::mt19937 rng(7);
    int documents = 0;
    for (const std::size_t step : {1u, 2u, 4u, 8u})
        for (const double odd : {0.0, 0.05, 0.3, 1.0})
            for (int round = 0; round < 20; ++round) {
                const std::string text = indent(compact, step, odd, rng);
                const auto read = forma::try_from_json<branch>(text);
                ASSERT_TRUE(read.has_value()) << read.error().what() << "\n" << text;
                EXPECT_EQ(read.value(), expected) << text;
                ++documents;
            }
    EXPECT_EQ(documents, 320);
}

// Past the depths whose indentation the reader keeps (16), runs are scanned as any other.
TEST(indentation, documents_deeper_than_the_kept_depths_read_the_same) {
    node deep{0, {}};
    node* at = &deep;
    for (int depth = 1; depth < 40; ++depth) {
        at->children = {node{depth, {}}, node{-depth, {}}};
        at = &at->children.front();
    }
    const std::string compact = forma::to_json(deep);
    std::mt19937 rng(3);
    for (const double odd : {0.0, 0.3}) {
        const std::string text = indent(compact, 2, odd, rng);
        const auto read = forma::try_from_json<node>(text, {.max_depth = 200});
        ASSERT_TRUE(read.has_value()) << read.error().what();
        EXPECT_EQ(read.value(), deep);
    }
}

// A byte that is not white space right after a run (expected or not) is where the error is.
TEST(indentation, an_error_after_a_run_is_reported_at_its_byte) {
    const std::string compact = forma::to_json(sample());
    std::mt19937 rng(11);
    int checked = 0;
    for (int round = 0; round < 200; ++round) {
        std::string text = indent(compact, 4, round % 2 ? 0.0 : 0.2, rng);
        std::vector<std::size_t> after_runs; // outside strings
        bool in_string = false;
        for (std::size_t i = 1; i < text.size(); ++i) {
            const char c = text[i];
            if (in_string) {
                if (c == '\\') ++i;
                else if (c == '"') in_string = false;
                continue;
            }
            if (std::string_view(" \t\n\r").find(text[i - 1]) != std::string_view::npos &&
                std::string_view(" \t\n\r").find(c) == std::string_view::npos)
                after_runs.push_back(i);
            in_string = c == '"';
        }
        const std::size_t at = after_runs[rng() % after_runs.size()];
        text.insert(at, "#");
        const auto read = forma::try_from_json<branch>(text);
        ASSERT_TRUE(read.has_error()) << text;
        EXPECT_EQ(read.error().offset(), at) << read.error().what() << "\n" << text.substr(0, at + 1);
        ++checked;
    }
    EXPECT_EQ(checked, 200);
}

// `expected`'s compact text with every `token` outside strings written as each of `layouts` in
// turn (the leaf's strings hold neither ':' nor ','): each reads as `expected`.
void expect_every_layout_reads_the_same(const leaf& expected, char token, std::initializer_list<std::string> layouts) {
    for (const std::string& layout : layouts) {
        std::string text = forma::to_json(expected);
        for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + layout.size()))
            text.replace(at, 1, layout);
        const auto read = forma::try_from_json<leaf>(text);
        ASSERT_TRUE(read.has_value()) << read.error().what() << "\n" << text;
        EXPECT_EQ(read.value(), expected) << text;
    }
}

// A member name's ':' is checked in place when ":" or ": " is followed by the value; every
// other layout around it, and the end of input close after it, reads as the compact text does.
TEST(indentation, a_member_names_colon_in_any_white_space_reads_as_the_compact_text_does) {
    expect_every_layout_reads_the_same(leaf{7, "n", {1, 2}}, ':',
                                       {":", ": ", " :", " : ", ":  ", ":\n", ":\t", ":\r\n  ", "\n:\n", ":\n\n "});
    // Fewer than 3 bytes after the name: read as any other member, and input cut there is an
    // error at its end.
    EXPECT_EQ(forma::from_json<leaf>(R"({"values":[],"name":"","id":5})").id, 5);
    for (const std::string text : {R"({"id":5)", R"({"id":)", R"({"id": )", R"({"id")", R"({"id" )"}) {
        const auto read = forma::try_from_json<leaf>(text);
        ASSERT_TRUE(read.has_error()) << text;
        EXPECT_EQ(read.error().offset(), text.size()) << read.error().what();
    }
    // A byte that cannot start a value, right after the ':' or its space, is where the error is.
    for (const std::string separator : {":", ": ", ":  "}) {
        const std::string text = "{\"id\"" + separator + "#}";
        const auto read = forma::try_from_json<leaf>(text);
        ASSERT_TRUE(read.has_error()) << text;
        EXPECT_EQ(read.error().offset(), text.find('#')) << read.error().what();
    }
}

// After a value, ',' then the next value, ", " and a line break with its indentation are read
// in place; every other layout around a comma, and input cut close after one, reads as the
// compact text does or fails where it ends.
TEST(indentation, a_comma_in_any_white_space_reads_as_the_compact_text_does) {
    expect_every_layout_reads_the_same(leaf{7, "n", {1, 2, 3}}, ',',
                                       {",", ", ", " ,", " , ", ",  ", ",\n", ",\t", ",\r\n  ", "\n,\n", ",\n\n ", ",\n  "});
    // Input that ends 0 to 2 bytes after a comma: an error at its end.
    for (const std::string text : {R"({"id":5,)", R"({"id":5, )", R"({"id":5,")", R"({"values":[1,)", R"({"values":[1, )",
                                   R"({"values":[1,2)", "{\"id\":5,\n"}) {
        const auto read = forma::try_from_json<leaf>(text);
        ASSERT_TRUE(read.has_error()) << text;
        EXPECT_EQ(read.error().offset(), text.size()) << read.error().what() << "\n" << text;
    }
    // A byte that cannot come next, right after the comma or its space, is where the error is;
    // a comma before the closing bracket is one.
    for (const std::string separator : {",", ", ", ",  ", ",\n  "})
        for (const std::string bad : {"#", "}", "]"}) {
            for (const std::string& text : {"{\"id\":5" + separator + bad + "}", "{\"values\":[1" + separator + bad + "]}"}) {
                const auto read = forma::try_from_json<leaf>(text);
                ASSERT_TRUE(read.has_error()) << text;
                EXPECT_EQ(read.error().offset(), text.find(bad, text.find(','))) << read.error().what() << "\n" << text;
            }
        }
}

} // namespace
