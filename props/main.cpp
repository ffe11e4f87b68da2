// The property suites' main: GoogleTest plus two things RapidCheck's integration leaves open.
// SSAC_THOROUGH=1 multiplies RapidCheck's max_success (set per suite through RC_PARAMS by
// props/CMakeLists.txt) by 10 before RapidCheck reads its configuration, and at exit every
// statistical property's margin row is written to $SSAC_PROPS_MARGINS_DIR.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
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
    std::smatch m;
    const std::regex re("max_success=([0-9]+)");
    if (std::regex_search(params, m, re))
      params = std::regex_replace(params, re,
                                  "max_success=" + std::to_string(10 * std::stoull(m[1].str())));
    else
      params += " max_success=1000";
    setenv("RC_PARAMS", params.c_str(), 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new MarginsWriter);
  return RUN_ALL_TESTS();
}
