// Who may drive the labelling page (cli/label/guard.hpp): every header a hostile page or a DNS
// rebinding could forge, one at a time, against a request that is admitted.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "label/guard.hpp"

namespace ssac::cli {
namespace {

const std::string kToken = "00112233445566778899aabbccddeeff";

RequestFacts good_post() {
  return {
      "POST", "127.0.0.1:8765", "http://127.0.0.1:8765", "same-origin", "ssac-label-8765=" + kToken,
      ""};
}

TEST(LabelGuard, TheBrowsersOwnRequestsAreAdmitted) {
  const RequestGuard g(kToken, 8765);
  EXPECT_EQ(g.admit(good_post()).status, 0);
  EXPECT_FALSE(g.admit(good_post()).set_cookie);
  // Other loopback names with the port, any case; a cookie among others.
  for (const char* host : {"localhost:8765", "LOCALHOST:8765", "[::1]:8765"}) {
    RequestFacts r = good_post();
    r.host = host;
    r.origin = std::string("http://") + host;
    EXPECT_EQ(g.admit(r).status, 0) << host;
  }
  RequestFacts r = good_post();
  r.cookie = "other=1; ssac-label-8765=" + kToken + "; ssac-label-9000=x";
  EXPECT_EQ(g.admit(r).status, 0);
  // A script given the URL: no Origin, no Sec-Fetch-Site, the token as a parameter.
  r = {"POST", "127.0.0.1:8765", "", "", "", kToken};
  EXPECT_EQ(g.admit(r).status, 0);
  // The first GET: the query token, answered with the cookie.
  r = {"GET", "127.0.0.1:8765", "", "none", "", kToken};
  const Admission a = g.admit(r);
  EXPECT_EQ(a.status, 0);
  EXPECT_TRUE(a.set_cookie);
  EXPECT_EQ(g.set_cookie(), "ssac-label-8765=" + kToken + "; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(g.url(), "http://127.0.0.1:8765/?token=" + kToken);
}

TEST(LabelGuard, AForgedHostIsRefused) {
  const RequestGuard g(kToken, 8765);
  for (const char* host :
       {"attacker.example", "attacker.example:8765", "127.0.0.1", "127.0.0.1:8766", "localhost",
        "127.0.0.2:8765", "", "localhost:87650", "127.0.0.1:8765.attacker.example"}) {
    RequestFacts r = good_post();
    r.host = host;
    const Admission a = g.admit(r);
    EXPECT_EQ(a.status, 403) << host;
    EXPECT_EQ(a.reason, "Host must be 127.0.0.1:8765, localhost:8765 or [::1]:8765") << host;
    r.method = "GET";
    EXPECT_EQ(g.admit(r).status, 403) << host;
  }
}

TEST(LabelGuard, APostFromAnotherPageIsRefusedEvenWithTheCookie) {
  const RequestGuard g(kToken, 8765);
  for (const char* origin : {"http://attacker.example", "null", "http://127.0.0.1:8766",
                             "https://127.0.0.1:8765", "http://localhost:8765.evil"}) {
    RequestFacts r = good_post();
    r.origin = origin;
    const Admission a = g.admit(r);
    EXPECT_EQ(a.status, 403) << origin;
    EXPECT_EQ(a.reason, "a request from another page (Origin) is refused") << origin;
  }
  for (const char* site : {"cross-site", "same-site"}) {
    RequestFacts r = good_post();
    r.origin.clear();
    r.fetch_site = site;
    const Admission a = g.admit(r);
    EXPECT_EQ(a.status, 403) << site;
    EXPECT_EQ(a.reason, "a request from another page (Sec-Fetch-Site) is refused") << site;
  }
  // A GET is not checked for Origin (it changes nothing) but still needs the token.
  RequestFacts r = good_post();
  r.method = "GET";
  r.origin = "http://attacker.example";
  EXPECT_EQ(g.admit(r).status, 0);
}

TEST(LabelGuard, AMissingOrWrongTokenIsRefused) {
  const RequestGuard g(kToken, 8765);
  std::string wrong = kToken;
  wrong.back() = '0';
  for (const std::string& cookie : std::vector<std::string>{
           "", "ssac-label-8765=", "ssac-label-8765=" + wrong, "ssac-label-9999=" + kToken,
           "ssac-label-8765=" + kToken + "0", "xssac-label-8765=" + kToken}) {
    for (const std::string& token : std::vector<std::string>{"", wrong, kToken.substr(0, 31)}) {
      for (const char* method : {"GET", "POST"}) {
        RequestFacts r = good_post();
        r.method = method;
        r.cookie = cookie;
        r.token = token;
        const Admission a = g.admit(r);
        EXPECT_EQ(a.status, 403) << cookie << " / " << token;
        EXPECT_EQ(a.reason,
                  "this session's token is missing or wrong: open the address ssac label printed");
      }
    }
  }
}

// The case folding on its own: every admitted value is spelled without 'z', so at admit() a 'Z'
// left unfolded changes no answer; here each byte is checked, the ends of A-Z and their
// neighbours among them.
TEST(LabelGuard, AsciiLowerFoldsExactlyAToZ) {
  std::string all, folded;
  for (int c = 1; c < 256; ++c) {
    all += static_cast<char>(c);
    folded += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  EXPECT_EQ(ascii_lower(all), folded);
  EXPECT_EQ(ascii_lower("@AZ[`az{"), "@az[`az{");
}

TEST(LabelGuard, SameSecretComparesEveryByte) {
  EXPECT_TRUE(same_secret("", ""));
  EXPECT_TRUE(same_secret(kToken, kToken));
  for (std::size_t i = 0; i < kToken.size(); ++i) {
    std::string t = kToken;
    t[i] = t[i] == 'f' ? 'e' : 'f';
    EXPECT_FALSE(same_secret(kToken, t)) << i;
  }
  EXPECT_FALSE(same_secret(kToken, kToken + "0"));
}

TEST(LabelGuard, TokensAre128BitsAndDiffer) {
  std::set<std::string> seen;
  for (int i = 0; i < 64; ++i) {
    const std::string t = session_token();
    ASSERT_EQ(t.size(), 32u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos) << t;
    seen.insert(t);
  }
  // 64 draws of 128 bits: a repeat has probability below 2^-115 unless the source is broken.
  EXPECT_EQ(seen.size(), 64u);
}

}  // namespace
}  // namespace ssac::cli
