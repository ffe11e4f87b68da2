// The names of the Phase-2 searches and of the two algorithms, as the command line, traces,
// summaries and the Python module write and read them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssac/ssac.hpp"

namespace ssac {

const char* to_string(Search s) {
  switch (s) {
    case Search::random:
      return "random";
    case Search::distance:
      return "distance";
    case Search::unified:
      return "unified";
    case Search::plain:
      break;
  }
  return "plain";
}

std::optional<Search> parse_search(std::string_view name) {
  for (Search s : {Search::random, Search::distance, Search::unified, Search::plain})
    if (name == to_string(s)) return s;
  return std::nullopt;
}

const std::vector<std::string>& weak_search_names() {
  static const std::vector<std::string> names = {
      to_string(Search::random), to_string(Search::distance), to_string(Search::unified)};
  return names;
}

const char* to_string(Algorithm a) {
  return a == Algorithm::weak ? "weak" : "original";
}

std::optional<Algorithm> parse_algorithm(std::string_view name) {
  for (Algorithm a : {Algorithm::weak, Algorithm::original})
    if (name == to_string(a)) return a;
  return std::nullopt;
}

const std::vector<std::string>& algorithm_names() {
  static const std::vector<std::string> names = {to_string(Algorithm::weak),
                                                 to_string(Algorithm::original)};
  return names;
}

}  // namespace ssac
