#include <forma/net/base_url.hpp>

#include <gtest/gtest.h>

namespace {

using forma::net::parse_base_url;

TEST(base_url, takes_apart_scheme_host_port_and_path) {
    const auto url = parse_base_url("https://api.openai.com/v1/");
    EXPECT_TRUE(url.tls);
    EXPECT_EQ(url.host, "api.openai.com");
    EXPECT_EQ(url.port, 443);
    EXPECT_EQ(url.path, "/v1");
    EXPECT_EQ(url.host_header(), "api.openai.com");
    EXPECT_EQ(url.authority(), "api.openai.com:443");
}

TEST(base_url, plain_http_defaults_to_port_80_and_keeps_an_explicit_port) {
    const auto url = parse_base_url("HTTP://localhost:11434/v1");
    EXPECT_FALSE(url.tls);
    EXPECT_EQ(url.port, 11434);
    EXPECT_TRUE(url.explicit_port);
    EXPECT_EQ(url.host_header(), "localhost:11434");
    const auto default_port = parse_base_url("http://localhost:80");
    EXPECT_EQ(default_port.path, "");
    EXPECT_EQ(default_port.host_header(), "localhost") << "the scheme's own port is not written";
}

TEST(base_url, ipv6_hosts_are_bracketed_in_headers_only) {
    const auto url = parse_base_url("https://[::1]:8443/v1");
    EXPECT_EQ(url.host, "::1");
    EXPECT_EQ(url.port, 8443);
    EXPECT_EQ(url.host_header(), "[::1]:8443");
    EXPECT_EQ(url.authority(), "[::1]:8443");
}

TEST(base_url, rejects_what_a_base_url_cannot_be_with_the_url_quoted) {
    for (const char* bad : {"api.openai.com/v1", "ftp://example.com", "https://", "https://:443/v1",
                            "https://host:0", "https://host:65536", "https://host:12ab", "https://[::1/v1"}) {
        try {
            (void)parse_base_url(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const forma::error& e) {
            EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
        }
    }
}

TEST(base_url, a_rejected_url_is_quoted_without_the_credentials_it_may_carry) {
    for (const char* bad : {"https://user:sk-secret@host/v1", "https://host/v1?api-key=sk-secret",
                            "https://host/v1#sk-secret"}) {
        try {
            (void)parse_base_url(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const forma::error& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.find("sk-secret"), std::string::npos) << message;
            EXPECT_NE(message.find("https://"), std::string::npos) << message;
        }
    }
}

} // namespace
