// The property suites' main: GoogleTest plus two things RapidCheck's integration leaves open.
// SSAC_THOROUGH=1 multiplies RapidCheck's max_success (set per suite through RC_PARAMS by
// props/CMakeLists.txt) by 10 before RapidCheck reads its configuration, and at exit every
// statistical property's margin row is written to $SSAC_PROPS_MARGINS_DIR.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support.hpp"

namespace {
class MarginsWriter : public ::testing::Environment {
 public:
  void TearDown() override { ssac::props::write_margins(); }
};
}  // namespace

int main(int argc, char** argv) {
  if (ssac::props::thorough()) {
    const char* env = std::getenv("RC_PARAMS");
    std::string params = env ? env : "";
    // Plain string search: g++ 12 reports false -Wmaybe-uninitialized inside <regex> at -O1, which
    // breaks the sanitizer build under -Werror.
    const std::string key = "max_success=";
    const std::size_t at = params.find(key);
    if (at == std::string::npos) {
      params += " max_success=1000";
    } else {
      const std::size_t from = at + key.size();
      std::size_t to = from;
      while (to < params.size() && params[to] >= '0' && params[to] <= '9')
        ++to;
      const unsigned long long cases =
          to > from ? std::stoull(params.substr(from, to - from)) : 100;
      params.replace(from, to - from, std::to_string(10 * cases));
    }
    setenv("RC_PARAMS", params.c_str(), 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new MarginsWriter);
  return RUN_ALL_TESTS();
}
