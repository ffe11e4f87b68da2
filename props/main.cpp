// The property suites' main: GoogleTest plus two things RapidCheck's integration leaves open.
// SSAC_THOROUGH=1 (or SSAC_PROPS_SCALE) scales RapidCheck's max_success (set per suite through
// RC_PARAMS by props/CMakeLists.txt) before RapidCheck reads its configuration, and at exit every
// statistical property's margin row is written to $SSAC_PROPS_MARGINS_DIR. SSAC_PROPS_EXCLUDE
// (GoogleTest patterns, ':'-separated) leaves tests out of whatever --gtest_filter selects: the
// sanitizer run (scripts/sanitize.sh) uses it for the regressions on pinned instances, whose run
// counts are part of their claims and do not scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "support.hpp"

namespace {
class MarginsWriter : public ::testing::Environment {
 public:
  void TearDown() override { ssac::props::write_margins(); }
};
}  // namespace

namespace {
// The factor applied to every suite's case count: 10 under SSAC_THOROUGH=1, else SSAC_PROPS_SCALE
// (a decimal in (0, 100]; the sanitizer run uses a small one, since ASan and UBSan need every code
// path, not every case), else 1. A malformed scale is an error, not a silent default.
double case_scale() {
  if (ssac::props::thorough()) return 10.0;
  const char* env = std::getenv("SSAC_PROPS_SCALE");
  if (env == nullptr || *env == '\0') return 1.0;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  if (*end != '\0' || !(s > 0.0 && s <= 100.0)) {
    std::fprintf(stderr, "ssac_props: SSAC_PROPS_SCALE='%s' is outside its range (0, 100]\n", env);
    std::exit(2);
  }
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  const double scale = case_scale();
  if (scale != 1.0) {
    const char* env = std::getenv("RC_PARAMS");
    std::string params = env ? env : "";
    // Plain string search: g++ 12 reports false -Wmaybe-uninitialized inside <regex> at -O1, which
    // breaks the sanitizer build under -Werror.
    const std::string key = "max_success=";
    const std::size_t at = params.find(key);
    const auto scaled = [&](unsigned long long cases) {
      return std::max(1ULL, static_cast<unsigned long long>(std::ceil(scale * cases)));
    };
    if (at == std::string::npos) {
      params += " max_success=" + std::to_string(scaled(100));
    } else {
      const std::size_t from = at + key.size();
      std::size_t to = from;
      while (to < params.size() && params[to] >= '0' && params[to] <= '9')
        ++to;
      const unsigned long long cases =
          to > from ? std::stoull(params.substr(from, to - from)) : 100;
      params.replace(from, to - from, std::to_string(scaled(cases)));
    }
    setenv("RC_PARAMS", params.c_str(), 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (const char* exclude = std::getenv("SSAC_PROPS_EXCLUDE"); exclude != nullptr && *exclude) {
    std::string filter = ::testing::GTEST_FLAG(filter);
    filter += filter.find('-') == std::string::npos ? "-" : ":";
    ::testing::GTEST_FLAG(filter) = filter + exclude;
  }
  ::testing::AddGlobalTestEnvironment(new MarginsWriter);
  return RUN_ALL_TESTS();
}
