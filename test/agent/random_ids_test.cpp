// Ids forma hands out are capabilities (an MCP session's id, a task's): seen ids must not tell
// the next ones, and a forked child must not hand out its parent's.
#include <forma/agent/agent.hpp>

#include "text/random_hex.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

// ---- a predictor of std::mt19937_64, as an attacker would write it ---------------------------

std::uint64_t temper(std::uint64_t y) {
    y ^= (y >> 29) & 0x5555555555555555u;
    y ^= (y << 17) & 0x71D67FFFEDA60000u;
    y ^= (y << 37) & 0xFFF7EEE000000000u;
    return y ^ (y >> 43);
}

std::uint64_t untemper(std::uint64_t y) {
    y ^= y >> 43;
    y ^= (y << 37) & 0xFFF7EEE000000000u;
    std::uint64_t x = y;
    for (int i = 0; i < 4; ++i) x = y ^ ((x << 17) & 0x71D67FFFEDA60000u);
    y = x;
    for (int i = 0; i < 3; ++i) x = y ^ ((x >> 29) & 0x5555555555555555u);
    return x;
}

/// Whether some 312 consecutive outputs of `outputs`, taken as one block of a Mersenne Twister's
/// state, give the output that follows them: the generator is then predictable from what it showed.
bool predicts_a_next_output(const std::vector<std::uint64_t>& outputs) {
    constexpr std::size_t n = 312, m = 156;
    for (std::size_t at = 0; at + n < outputs.size(); ++at) {
        const std::uint64_t y = (untemper(outputs[at]) & 0xFFFFFFFF80000000u) | (untemper(outputs[at + 1]) & 0x7FFFFFFFu);
        const std::uint64_t next = untemper(outputs[at + m]) ^ (y >> 1) ^ ((y & 1u) ? 0xB5026F5AA96619E9u : 0u);
        if (temper(next) == outputs[at + n]) return true;
    }
    return false;
}

int hex_value(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/// The two 64-bit draws an id's 32 digits were written from (write_random_hex: the low nibbles
/// of a draw's eight bytes, then their high nibbles).
std::array<std::uint64_t, 2> draws_of(const std::string& id) {
    std::array<std::uint64_t, 2> out{};
    for (int half = 0; half < 2; ++half)
        for (int byte = 0; byte < 8; ++byte) {
            const auto low = static_cast<std::uint64_t>(hex_value(id[16 * half + byte]));
            const auto high = static_cast<std::uint64_t>(hex_value(id[16 * half + 8 + byte]));
            out[half] |= (high << 4 | low) << (8 * byte);
        }
    return out;
}

TEST(random_ids, ThePredictorPredictsAMersenneTwister) {
    std::mt19937_64 engine{12345};
    std::vector<std::uint64_t> outputs(700);
    engine.discard(77); // not at a block's start
    for (std::uint64_t& o : outputs) o = engine();
    EXPECT_TRUE(predicts_a_next_output(outputs));
}

TEST(random_ids, IdsSeenDoNotPredictTheNext) {
    std::vector<std::uint64_t> outputs;
    for (int i = 0; i < 350; ++i) {
        const std::string id = forma::make_unique_id();
        ASSERT_EQ(id.size(), 32u);
        for (const std::uint64_t d : draws_of(id)) outputs.push_back(d);
    }
    EXPECT_FALSE(predicts_a_next_output(outputs)); // an id made by std::mt19937_64 fails here
}

TEST(random_ids, AForkedChildDrawsOtherIdsThanItsParent) {
    char before[32];
    forma::text_detail::write_random_hex(before); // the pool is filled before the fork
    int pipe_ends[2];
    ASSERT_EQ(pipe(pipe_ends), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        char drawn[32];
        forma::text_detail::write_random_hex(drawn);
        const bool written = write(pipe_ends[1], drawn, sizeof drawn) == static_cast<ssize_t>(sizeof drawn);
        _exit(written ? 0 : 1);
    }
    close(pipe_ends[1]);
    char parents[32];
    forma::text_detail::write_random_hex(parents);
    char childs[32];
    const ssize_t got = read(pipe_ends[0], childs, sizeof childs);
    close(pipe_ends[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_EQ(got, 32);
    EXPECT_NE(std::string(parents, 32), std::string(childs, 32));
    EXPECT_NE(std::string(before, 32), std::string(parents, 32));
}

} // namespace
