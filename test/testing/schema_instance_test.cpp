#include <forma/testing/schema_instance.hpp>

#include "instance_types.hpp"

#include <forma/json/detail/constraints.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "support/numbered.hpp"

#include <set>
#include <string>

namespace {

namespace json = boost::json;
using forma_test::numbered;
using forma::testing::make_instance;

json::object schema(std::string_view text) { return json::parse(text).as_object(); }

// Commas keep the words apart: each is a phrase of its own (see plain_strings_are_the_prompts_phrases).
json::value make(std::string_view schema_text, std::string_view prompt = "alpha, beta, gamma",
                 std::uint64_t seed = 0) {
    return make_instance(schema(schema_text), prompt, seed);
}

void expect_schema_error(std::string_view schema_text, std::string_view fragment) {
    try {
        make(schema_text);
        ADD_FAILURE() << "no schema_error for " << schema_text;
    } catch (const forma::schema_error& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(make_instance, strings_are_prompt_words_in_turn_and_cycle) {
    const auto v = make(R"({"type":"array","items":{"type":"string"},"minItems":4})", "alpha, beta!");
    EXPECT_EQ(json::serialize(v), R"(["alpha","beta","alpha","beta"])");
}

TEST(make_instance, the_seed_picks_the_first_word_and_is_deterministic) {
    const auto s = R"({"type":"string"})";
    EXPECT_EQ(make(s, "alpha, beta, gamma", 1), "beta");
    EXPECT_EQ(make(s, "alpha, beta, gamma", 5), "gamma");
    EXPECT_EQ(make(R"({"type":"array","items":{"type":"integer"}})", "x", 42),
              make(R"({"type":"array","items":{"type":"integer"}})", "x", 42));
}

TEST(make_instance, utf8_words_are_kept_whole_and_an_empty_prompt_still_works) {
    EXPECT_EQ(make(R"({"type":"string"})", "  café. "), "café");
    EXPECT_EQ(make(R"({"type":"string"})", ""), "forma");
}

TEST(make_instance, scalars) {
    EXPECT_TRUE(make(R"({"type":"null"})").is_null());
    EXPECT_TRUE(make(R"({"type":"boolean"})").is_bool());
    EXPECT_TRUE(make(R"({"type":"integer"})").is_int64());
    EXPECT_TRUE(make(R"({"type":"number"})").is_number());
    EXPECT_TRUE(make(R"({"type":["integer","string"]})").is_primitive());
}

TEST(make_instance, integer_bounds_inclusive_and_exclusive) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const auto a = make(R"({"type":"integer","minimum":-3,"maximum":3})", "x", seed).as_int64();
        EXPECT_TRUE(a >= -3 && a <= 3) << a;
        const auto b = make(R"({"type":"integer","exclusiveMinimum":5,"exclusiveMaximum":7})", "x", seed);
        EXPECT_EQ(b.as_int64(), 6);
        const auto c = make(R"({"type":"integer","minimum":1000})", "x", seed).as_int64();
        EXPECT_GE(c, 1000);
        const auto d = make(R"({"type":"integer","maximum":-1000})", "x", seed).as_int64();
        EXPECT_LE(d, -1000);
        const auto e = make(R"({"type":"integer","minimum":1,"maximum":100,"multipleOf":7})", "x", seed).as_int64();
        EXPECT_EQ(e % 7, 0);
    }
}

TEST(make_instance, number_bounds_inclusive_and_exclusive) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const double a = make(R"({"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1})", "x", seed)
                             .to_number<double>();
        EXPECT_TRUE(a > 0 && a < 1) << a;
        const double b = make(R"({"type":"number","minimum":2.5,"maximum":2.5})", "x", seed).to_number<double>();
        EXPECT_EQ(b, 2.5);
        const double c = make(R"({"type":"number","exclusiveMinimum":0.1,"exclusiveMaximum":0.1000001})", "x",
                              seed).to_number<double>();
        EXPECT_TRUE(c > 0.1 && c < 0.1000001) << c;
    }
}

TEST(make_instance, an_empty_numeric_range_is_a_schema_error) {
    expect_schema_error(R"({"type":"integer","minimum":5,"maximum":4})", "bounds");
    expect_schema_error(R"({"type":"integer","exclusiveMinimum":5,"exclusiveMaximum":6})", "bounds");
}

TEST(make_instance, string_lengths_pad_and_cut_by_code_points) {
    EXPECT_EQ(make(R"({"type":"string","minLength":8})", "ab, cd"), "abcdabcd");
    EXPECT_EQ(make(R"({"type":"string","maxLength":2})", "éléphant"), "él");
}

TEST(make_instance, every_format_gives_a_value_forma_accepts) {
    for (std::string_view f : {"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6",
                               "uuid", "uri"})
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            const auto v = make_instance(json::object{{"type", "string"}, {"format", f}}, "Zoë Smith", seed);
            EXPECT_TRUE(forma::json_detail::matches_format(f, v.as_string())) << f << ": " << v;
        }
    // An unknown format is an annotation.
    EXPECT_EQ(make(R"({"type":"string","format":"color"})"), "alpha");
}

TEST(make_instance, patterns_prefer_prompt_words_then_generate) {
    EXPECT_EQ(make(R"({"type":"string","pattern":"^g"})"), "gamma");
    EXPECT_EQ(make(R"({"type":"string","pattern":"^[A-Z]+$"})"), "ALPHA");
    EXPECT_EQ(make(R"({"type":"string","pattern":"^[A-Z][a-z]+$"})"), "Alpha");
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        for (std::string_view p : {"^[0-9]{5}$", "^(ab|cd)+-x?\\d{2,3}$", "^[^a-z]{4}$", "^\\w+@\\w+\\.com$",
                                   "^(?:[A-F0-9]{2}:){2}[A-F0-9]{2}$", "colou?r"}) {
            const auto v = make_instance(json::object{{"type", "string"}, {"pattern", p}}, "alpha beta", seed);
            EXPECT_TRUE(forma::json_detail::matches_pattern(p, v.as_string())) << p << ": " << v;
        }
        const auto sized = make(R"({"type":"string","pattern":"^[a-z]+$","minLength":7,"maxLength":9})", "x", seed);
        const auto n = sized.as_string().size();
        EXPECT_TRUE(n >= 7 && n <= 9) << sized;
    }
}

TEST(make_instance, an_unmatchable_pattern_falls_back_to_the_shortest_word) {
    // Backreferences are not generated: the documented fallback.
    EXPECT_EQ(make(R"({"type":"string","pattern":"^(a)\\1$"})", "alpha be gamma"), "be");
}

TEST(make_instance, generated_candidates_are_valid_utf8) {
    // The generator builds strings byte by byte; a lone byte of U+FFFD's encoding
    // reads as U+FFFD to the matcher, but is no string to return.
    EXPECT_EQ(make(R"({"type":"string","pattern":"^[\uFFFD]$"})", "alpha be gamma"), "be");
}

json::object string_with_pattern(std::string_view pattern) {
    return {{"type", "string"}, {"pattern", pattern}};
}

json::value object_of(const json::object& properties, std::string_view prompt = "alpha be gamma") {
    return make_instance(json::object{{"type", "object"}, {"properties", properties}}, prompt);
}

TEST(make_instance, searches_whose_bound_is_too_large_are_not_made) {
    // Two fuzz findings: each search of a generated candidate backtracked until Boost.Regex
    // gave up (15 to 60 ms in Release), 40 candidates per string.
    constexpr std::string_view backtracking[] = {
        R"(^(?:JJJJJJJJJJJ}|........+....*...~*...........x\d%)-[^aUUUUUUUUUUU2U-c]{204}$(W|b)*obj,4}(a$)*c+)",
        R"(^(Z]{3}|..*.......+..............+\d%)-[^aUUUUUUUUUUU2U-c]{204}$(W|b)*obj@ctc+)"};
    json::object properties;
    for (int i = 0; i < 40; ++i) properties[numbered("s", i)] = string_with_pattern(backtracking[i % 2]);
    const auto v = object_of(properties);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(v.at(numbered("s", i)), "be") << i;
}

TEST(make_instance, a_pattern_too_complex_once_is_not_searched_again) {
    // Generated candidates (a run of a and b, then c) make this backtrack past Boost.Regex's
    // bound; searching it for every candidate of every string would spend the budget.
    json::object properties;
    for (int i = 0; i < 40; ++i) properties[numbered("s", i)] = string_with_pattern("^([ab]|[ab])*([ab]*)*$c");
    properties["zip"] = string_with_pattern("^[0-9]{5}$");
    const auto v = object_of(properties);
    for (int i = 0; i < 40; ++i) EXPECT_EQ(v.at(numbered("s", i)), "be") << i;
    EXPECT_TRUE(forma::json_detail::matches_pattern("^[0-9]{5}$", v.at("zip").as_string())) << v.at("zip");
}

TEST(make_instance, strings_sharing_a_pattern_search_each_word_once) {
    json::object properties;
    for (int i = 0; i < 200; ++i) properties[numbered("zip", i)] = string_with_pattern("^[0-9]{5}$");
    const auto v = object_of(properties, instance_types::prompt);
    for (int i = 0; i < 200; ++i)
        EXPECT_TRUE(forma::json_detail::matches_pattern("^[0-9]{5}$", v.at(numbered("zip", i)).as_string()))
            << i << ": " << v.at(numbered("zip", i));
}

TEST(make_instance, past_the_search_budget_pattern_strings_take_the_fallback) {
    // Each distinct pattern costs its prompt words' searches: some 300 of them fit.
    json::object properties;
    for (int i = 0; i < 100; ++i)
        properties[numbered("code", i)] = string_with_pattern(numbered("^[0-9]{5}x", i) + "$");
    const auto v = object_of(properties);
    EXPECT_TRUE(forma::json_detail::matches_pattern("^[0-9]{5}x0$", v.at("code0").as_string())) << v.at("code0");
    EXPECT_EQ(v.at("code99"), "be");
}

TEST(make_instance, enum_and_const) {
    std::set<std::string> seen;
    for (std::uint64_t seed = 0; seed < 40; ++seed)
        seen.insert(std::string(make(R"({"type":"string","enum":["c","f"]})", "x", seed).as_string()));
    EXPECT_EQ(seen, (std::set<std::string>{"c", "f"}));
    EXPECT_EQ(make(R"({"const":{"k":[1,2]}})"), json::parse(R"({"k":[1,2]})"));
}

TEST(make_instance, any_of_varies_with_the_seed_and_nullable_is_any_of_null) {
    std::set<json::kind> kinds;
    for (std::uint64_t seed = 0; seed < 40; ++seed)
        kinds.insert(make(R"({"anyOf":[{"type":"string"},{"type":"null"}]})", "x", seed).kind());
    EXPECT_EQ(kinds.size(), 2u);
}

TEST(make_instance, arrays_have_min_items_or_one_or_two) {
    std::set<std::size_t> sizes;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        sizes.insert(make(R"({"type":"array","items":{"type":"integer"}})", "x", seed).as_array().size());
        const auto a = make(R"({"type":"array","items":{"type":"integer"},"minItems":3,"maxItems":5})", "x", seed);
        EXPECT_EQ(a.as_array().size(), 3u);
        EXPECT_TRUE(make(R"({"type":"array","maxItems":0})", "x", seed).as_array().empty());
    }
    EXPECT_EQ(sizes, (std::set<std::size_t>{1, 2}));
}

TEST(make_instance, objects_get_required_and_optional_members) {
    const auto v = make(R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},
                            "required":["a"],"additionalProperties":false})");
    EXPECT_TRUE(v.as_object().contains("a"));
    EXPECT_TRUE(v.as_object().contains("b"));
    EXPECT_EQ(v.as_object().size(), 2u);
}

TEST(make_instance, additional_properties_as_a_schema_is_a_map_with_word_keys) {
    const auto v = make(R"({"type":"object","additionalProperties":{"type":"integer"}})", "k k k", 3);
    const auto& o = v.as_object();
    EXPECT_GE(o.size(), 1u);
    for (const auto& m : o) EXPECT_TRUE(m.value().is_int64());
}

TEST(make_instance, required_members_outside_a_closed_object_are_an_error) {
    expect_schema_error(R"({"type":"object","properties":{},"required":["x"],"additionalProperties":false})",
                        "\"x\" is required");
}

TEST(make_instance, refs_resolve_to_defs_and_to_the_root_and_recursion_ends) {
    const auto tree = schema(R"({"type":"object",
        "properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},
        "required":["label","children"],"additionalProperties":false})");
    const auto chart = schema(R"({"type":"object",
        "properties":{"root":{"$ref":"#/$defs/tree"},"next":{"anyOf":[{"$ref":"#/$defs/tree"},{"type":"null"}]}},
        "required":["root","next"],"additionalProperties":false,
        "$defs":{"tree":{"type":"object",
            "properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/tree"}}},
            "required":["label","children"],"additionalProperties":false}}})");
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const auto t = make_instance(tree, "a", seed);
        EXPECT_FALSE(t.at("children").as_array().empty());
        // Depth 0 object, 1 array, 2 object, 3 array: the children's children are empty.
        for (const auto& c : t.at("children").as_array()) EXPECT_TRUE(c.at("children").as_array().empty());
        EXPECT_TRUE(make_instance(chart, "a", seed).at("root").is_object());
    }
}

TEST(make_instance, ref_pointers_unescape_tilde_and_slash) {
    EXPECT_EQ(make(R"({"$ref":"#/$defs/a~1b~0c","$defs":{"a/b~c":{"const":7}}})"), 7);
}

TEST(make_instance, a_recursion_with_no_way_out_is_an_error) {
    expect_schema_error(R"({"type":"object","properties":{"x":{"$ref":"#"}},"required":["x"]})",
                        "no finite instance");
}

TEST(make_instance, unsupported_schemas_are_schema_errors_naming_the_place) {
    expect_schema_error(R"({"type":"object","properties":{"a":{"oneOf":[{"type":"string"}]}}})",
                        "unsupported keyword \"oneOf\" at /a");
    expect_schema_error(R"({"allOf":[{}]})", "\"allOf\" at (root)");
    expect_schema_error(R"({"type":"array","uniqueItems":true})", "uniqueItems");
    expect_schema_error(R"({"$ref":"https://example.com/s.json"})", "only local references");
    expect_schema_error(R"({"$ref":"#/$defs/missing"})", "does not resolve");
    expect_schema_error(R"({"type":"wat"})", "unknown type");
    expect_schema_error(R"({"enum":[]})", "non-empty");
    expect_schema_error(R"({"type":"string","minLength":3,"maxLength":2})", "minLength");
}

TEST(make_instance, schemas_schema_validator_refuses_are_refused_with_its_reasons) {
    // make_instance reads the schema as schema_validator compiles it: one reader of the keywords.
    expect_schema_error(R"({"allOf":[]})", "make_instance: invalid schema at #/allOf: ");
    expect_schema_error(R"({"type":"string","frobnicate":1})", "keyword \"frobnicate\" is not supported");
    expect_schema_error(R"({"type":"string","pattern":"("})", "invalid pattern");
}

TEST(make_instance, members_come_in_the_schemas_order) {
    EXPECT_EQ(json::serialize(make(R"({"type":"object","properties":{"b":{"const":1},"a":{"const":2}},
                                       "required":["c"],"additionalProperties":{"const":3}})")),
              R"({"b":1,"a":2,"c":3})");
}

// ---- limits, each found by fuzz/fuzz_runtime_schema ----------------------------------

TEST(make_instance, sizes_past_the_instance_limit_are_errors_not_hangs) {
    expect_schema_error(R"({"type":"array","minItems":100000000})", "larger than");
    expect_schema_error(R"({"type":"array","minItems":1e30})", "larger than");
    expect_schema_error(R"({"type":"string","minLength":1e9})", "larger than");
    // Small counts that multiply: a million strings.
    expect_schema_error(R"({"type":"array","minItems":100,"items":{"type":"array","minItems":100,)"
                        R"("items":{"type":"array","minItems":100,"items":{"type":"string"}}}})",
                        "larger than");
}

TEST(make_instance, a_huge_max_length_is_no_limit) {
    EXPECT_EQ(make(R"({"type":"string","maxLength":1e300})"), "alpha");
}

TEST(make_instance, a_pattern_with_huge_repetitions_gives_up_generating_quickly) {
    EXPECT_TRUE(make(R"({"type":"string","pattern":"^a{999999999}$"})").is_string());
    EXPECT_TRUE(make(R"({"type":"string","pattern":"^((a{1000}){1000}){1000}$"})").is_string());
}

TEST(make_instance, a_ref_index_too_large_for_any_integer_does_not_resolve) {
    expect_schema_error(R"({"$ref":"#/$defs/x/anyOf/99999999999999999999999","$defs":{"x":{"anyOf":[{}]}}})",
                        "does not resolve");
}

TEST(make_instance, numbers_beyond_64_bit_integers_stay_within_their_bounds) {
    const auto big = make(R"({"type":"number","minimum":1e308,"maximum":1.7e308})");
    ASSERT_TRUE(big.is_double()) << json::serialize(big);
    EXPECT_GE(big.as_double(), 1e308);
    const auto negative =
        make(R"({"type":"integer","minimum":-1.7e308,"maximum":-1e300,"multipleOf":3})");
    ASSERT_TRUE(negative.is_double()) << json::serialize(negative);
    EXPECT_LE(negative.as_double(), -1e300);
    EXPECT_GE(negative.as_double(), -1.7e308);
    expect_schema_error(
        R"({"type":"number","minimum":-1.7e308,"maximum":1.7e308,"multipleOf":1e-300})",
        "too wide");
}

TEST(make_instance, prompt_words_of_stray_continuation_bytes_are_skipped) {
    // Such a word has no code points: padding with it to a minLength never ended.
    EXPECT_EQ(make(R"({"type":"string","minLength":3})", "\x80\x80 \xbf"), "forma");
    EXPECT_EQ(make(R"({"type":"string","minLength":3})", "\x80 ab"), "abab");
}

// ---- plausible values: phrases and numbers from the prompt -------------------------------

constexpr std::string_view person_schema = R"({"type":"object",
    "properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0,"maximum":150},
                  "occupation":{"anyOf":[{"type":"string"},{"type":"null"}]}},
    "required":["name","age","occupation"],"additionalProperties":false})";

TEST(make_instance, a_person_from_the_prompt_reads_like_one) {
    // The quickstart's prompt and schema: names kept together, stop words and "35-year-old"
    // left out of strings, the age the prompt states.
    const auto v = make(person_schema, "John Smith is a 35-year-old software engineer from Boston.");
    EXPECT_EQ(v.at("name"), "John Smith");
    EXPECT_EQ(v.at("age"), 35);
    EXPECT_TRUE(v.at("occupation") == "software engineer" || v.at("occupation").is_null()) << v;
    EXPECT_EQ(make(person_schema, "John Smith is a 35-year-old software engineer from Boston.", 1).at("name"),
              "software engineer");
}

TEST(make_instance, plain_strings_are_the_prompts_phrases) {
    const auto strings = [](std::string_view prompt, std::size_t n) {
        return json::serialize(make_instance(
            json::object{{"type", "array"}, {"items", json::object{{"type", "string"}}}, {"minItems", n}}, prompt));
    };
    // Capitalised words together (at most four), lowercase words together (at most three).
    EXPECT_EQ(strings("Mary Ann Lee Jones Smith met the big red shiny bus", 4),
              R"(["Mary Ann Lee Jones","Smith","met","big red shiny"])");
    // Punctuation and line breaks end a phrase; spaces and tabs do not; a change of case does.
    EXPECT_EQ(strings("Oslo, Norway\nAda  Lovelace\tByron wrote notes", 4),
              R"(["Oslo","Norway","Ada Lovelace Byron","wrote notes"])");
    // Inner hyphens and apostrophes join a word; words holding digits and stop words are none.
    EXPECT_EQ(strings("It is the e-mail of O'Brien, sent at 9am in 2024-05", 2), R"(["e-mail","O'Brien"])");
    // Latin-1 capitals in UTF-8 count as capitals.
    EXPECT_EQ(strings("Émile Zola and Zoë", 2), R"(["Émile Zola","Zoë"])");
    // A prompt of stop words and numbers only: its words.
    EXPECT_EQ(strings("it is 42", 3), R"(["it","is","42"])");
}

TEST(make_instance, patterns_and_padding_still_use_single_words) {
    EXPECT_EQ(make(R"({"type":"string","pattern":"^[A-Z][a-z]+$"})", "John Smith"), "John");
    EXPECT_EQ(make(R"({"type":"string","minLength":14})", "John Smith"), "John SmithJohn");
    EXPECT_EQ(make(R"({"type":"string","maxLength":4})", "John Smith"), "John");
}

TEST(make_instance, a_number_the_prompt_states_is_taken_where_it_fits) {
    const auto obj = [](std::string_view properties, std::string_view prompt) {
        return make_instance(json::object{{"type", "object"}, {"properties", json::parse(properties)}}, prompt);
    };
    // Each number once, in the prompt's order, by the first value it fits.
    const auto v = obj(R"({"year":{"type":"integer","minimum":1900,"maximum":2100},
                          "age":{"type":"integer","minimum":0,"maximum":150},
                          "rooms":{"type":"integer","minimum":1,"maximum":20}})",
                       "Born in 1990, she is 35 and has 4 rooms.");
    EXPECT_EQ(v.at("year"), 1990);
    EXPECT_EQ(v.at("age"), 35);
    EXPECT_EQ(v.at("rooms"), 4);
    // Out of range, fractional for an integer, or not a multiple: not taken.
    EXPECT_EQ(make(R"({"type":"integer","minimum":0,"maximum":10})", "35"), 5);
    EXPECT_EQ(make(R"({"type":"integer","minimum":0,"maximum":10})", "2.5 7"), 7);
    EXPECT_EQ(make(R"({"type":"integer","minimum":0,"maximum":100,"multipleOf":10})", "35 40"), 40);
    EXPECT_EQ(make(R"({"type":"number","exclusiveMinimum":0,"exclusiveMaximum":35})", "35 2.5"), 2.5);
    // A leading minus, thousands separators; digits inside an identifier are no number.
    EXPECT_EQ(make(R"({"type":"integer","minimum":-50,"maximum":50})", "it was -3 degrees"), -3);
    EXPECT_EQ(make(R"({"type":"integer","minimum":0})", "it costs 1,200 dollars"), 1200);
    EXPECT_EQ(make(R"({"type":"integer","minimum":80,"maximum":90})", "an x86 box"), 85);
    // Unbounded: any stated number.
    EXPECT_EQ(make(R"({"type":"integer"})", "-1000000"), -1000000);
    // Only the first 64 numbers count (every number value looks at them all).
    std::string many;
    for (int i = 1; i <= 70; ++i) many += std::to_string(i) + " ";
    EXPECT_EQ(make(R"({"type":"integer","minimum":64,"maximum":100})", many), 64);
    const auto past = make(R"({"type":"integer","minimum":65,"maximum":100})", many).as_int64();
    EXPECT_TRUE(past >= 81 && past <= 83) << past;
}

TEST(make_instance, a_nullable_value_is_null_one_time_in_four) {
    int null_branches = 0, null_types = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        null_branches += make(R"({"anyOf":[{"type":"string"},{"type":"null"}]})", "x", seed).is_null();
        null_types += make(R"({"type":["null","integer"]})", "x", seed).is_null();
    }
    EXPECT_TRUE(null_branches > 60 && null_branches < 140) << null_branches;
    EXPECT_TRUE(null_types > 60 && null_types < 140) << null_types;
    // Without a null branch, every branch as often as the seed makes it.
    std::set<std::string> kinds;
    for (std::uint64_t seed = 0; seed < 40; ++seed)
        kinds.insert(json::serialize(make(R"({"anyOf":[{"const":1},{"const":2},{"const":3}]})", "x", seed)));
    EXPECT_EQ(kinds.size(), 3u);
}

TEST(make_instance, other_numbers_lie_near_the_middle_of_their_range) {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        // Within a twentieth of the range from its middle.
        const auto age = make(R"({"type":"integer","minimum":0,"maximum":150})", "x", seed).as_int64();
        EXPECT_TRUE(age >= 68 && age <= 82) << age;
        const double score = make(R"({"type":"number","minimum":0,"maximum":10})", "x", seed).to_number<double>();
        EXPECT_TRUE(score >= 4.5 && score <= 5.5) << score;
        const auto byte = make(R"({"type":"integer","minimum":-128,"maximum":127})", "x", seed).as_int64();
        EXPECT_TRUE(byte >= -13 && byte <= 12) << byte;
        // An unbounded side: the range [0, 20] where the other bound allows, else the 20 next to it.
        const auto any = make(R"({"type":"integer"})", "x", seed).as_int64();
        EXPECT_TRUE(any >= 9 && any <= 11) << any;
        const auto count = make(R"({"type":"integer","minimum":0})", "x", seed).as_int64();
        EXPECT_TRUE(count >= 9 && count <= 11) << count;
        const auto capped = make(R"({"type":"integer","maximum":150})", "x", seed).as_int64();
        EXPECT_TRUE(capped >= 9 && capped <= 11) << capped;
        const auto high = make(R"({"type":"integer","minimum":1000})", "x", seed).as_int64();
        EXPECT_TRUE(high >= 1009 && high <= 1011) << high;
        const auto low = make(R"({"type":"integer","maximum":-1000})", "x", seed).as_int64();
        EXPECT_TRUE(low >= -1011 && low <= -1009) << low;
        EXPECT_EQ(make(R"({"type":"integer","exclusiveMaximum":5})", "x", seed), 2);
        // A "multipleOf" wider than the window still finds a multiple past the bound.
        const auto big_step = make(R"({"type":"integer","minimum":1,"multipleOf":1000})", "x", seed).as_int64();
        EXPECT_TRUE(big_step == 1000 || big_step == 2000) << big_step;
    }
}

// ---- round trip: forma's own schemas, parsed back by forma ------------------------------

template <class T>
void round_trip(forma::schema_dialect dialect) {
    const auto& s = forma::json_schema<T>({.dialect = dialect});
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const std::string text = json::serialize(make_instance(s, instance_types::prompt, seed));
        auto r = forma::try_from_json<T>(text);
        ASSERT_TRUE(r.has_value()) << "seed " << seed << ", dialect " << static_cast<int>(dialect) << ": "
                                   << r.error().what() << "\n" << text;
    }
}

template <class T>
class make_instance_round_trip : public ::testing::Test {};
using round_trip_types = ::testing::Types<instance_types::contact, instance_types::collections,
                                          instance_types::tree, instance_types::list_node,
                                          instance_types::org_chart>;
TYPED_TEST_SUITE(make_instance_round_trip, round_trip_types);

TYPED_TEST(make_instance_round_trip, json_schema_2020_12) {
    round_trip<TypeParam>(forma::schema_dialect::json_schema_2020_12);
}
TYPED_TEST(make_instance_round_trip, openai_strict) { round_trip<TypeParam>(forma::schema_dialect::openai_strict); }

} // namespace
