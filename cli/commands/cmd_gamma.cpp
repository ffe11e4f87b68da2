// `ssac gamma`: the gamma-margin (Definition 2) of a labelled CSV, with each cluster's size,
// radius and nearest non-member distance to its mean.
#include <cstdio>
#include <iostream>

#include "commands/commands.hpp"
#include "options/option_checks.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"

namespace ssac::cli {

Command add_gamma(CLI::App& root) {
  auto* app = root.add_subcommand(
      "gamma",
      "Print the gamma-margin (Definition 2) of a labelled CSV, with each cluster's size, radius "
      "r(C_i) and nearest non-member distance to its mean.");
  auto file = std::make_shared<std::string>();
  app->add_option("FILE", *file, "CSV with a 'label' column")->required();
  path_options(app, {"FILE"});
  return {app, [file]() {
            const Dataset d = read_csv(*file);
            if (!d.has_labels())
              throw DataError(*file + ": no 'label' column; the gamma-margin needs the clustering");
            const ClusterStats st = [&] {
              try {
                return cluster_stats(d.points, d.labels);
              } catch (const DataError& e) {
                throw DataError(*file + ": " + e.what());
              }
            }();
            std::cout << "gamma = " << format_double(st.gamma) << "\n";
            std::cout << "n = " << d.n() << ", m = " << d.m() << ", clusters = " << st.sizes.size()
                      << "\n";
            std::printf("%8s %8s %14s %18s %10s\n", "cluster", "size", "radius", "nearest_outsider",
                        "ratio");
            for (std::size_t i = 0; i < st.sizes.size(); ++i) {
              const double ratio = cluster_ratio(st.radii[i], st.nearest_outsider[i]);
              std::printf("%8zu %8zu %14.6f %18.6f %10.6f\n", i + 1, st.sizes[i], st.radii[i],
                          st.nearest_outsider[i], ratio);
            }
            return 0;
          }};
}

}  // namespace ssac::cli
