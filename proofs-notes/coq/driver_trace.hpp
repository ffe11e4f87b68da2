// What run_driver.cpp and dw_driver.cpp share: an instance on integer coordinates, a run made as
// `ssac cluster --trace` makes it (make_oracle, AskedOracle with the run's coin-flip stream,
// run_ssac with the run's seed, trace_writer), and the output the checkers read (#point lines,
// the trace) with, for the runs the tests also give to `ssac cluster`, the files it reads.
#pragma once

#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "ssac/oracle_spec.hpp"
#include "ssac/rng.hpp"
#include "ssac/ssac.hpp"
#include "ssac/trace.hpp"

namespace driver {

struct Instance {
  ssac::Matrix X;  // integer coordinates, stored as doubles
  std::vector<int> labels;
};

// The trace of one run, as `ssac cluster --trace` writes it. `plain` is Algorithm 1 of Ashtiani
// et al. (a not-sure answer turned into a coin flip), the trace header's algorithm "original".
inline std::string traced_run(const Instance& I, const ssac::Params& P,
                              const ssac::OracleSpec& spec, std::uint64_t seed, bool plain) {
  std::string trace;
  ssac::TraceHeader th;
  th.params = P;
  th.algorithm = plain ? "original" : "weak";
  th.oracle = spec;
  th.seed = seed;
  auto writer = ssac::trace_writer(I.X, th, [&trace](const std::string& line) {
    trace += line;
    trace += '\n';
  });
  auto base_oracle =
      ssac::make_oracle(spec, I.X, I.labels, ssac::Rng::stream(seed, {ssac::kStreamOracle}));
  ssac::AskedOracle oracle(*base_oracle, plain, ssac::Rng::stream(seed, {ssac::kStreamCoinFlip}));
  ssac::run_ssac(I.X, oracle.get(), P, seed, writer.get());
  return trace;
}

// The instance's #point lines and the trace; with `cli`, also DIR/runID.csv, .args and .jsonl
// for the test that runs `ssac cluster` on them. The output goes to stdout in pieces of about
// 1 MiB.
inline void append_run(std::string& out, const Instance& I, const std::string& trace,
                       const std::string& args, const std::string& dir, long id, bool cli) {
  const long n = I.X.rows(), m = I.X.cols();
  for (long r = 0; r < n; ++r) {
    out += "#point " + std::to_string(I.labels[static_cast<std::size_t>(r)]);
    for (long c = 0; c < m; ++c)
      out += " " + std::to_string(static_cast<int>(I.X(r, c)));
    out += "\n";
  }
  out += trace;
  if (cli) {
    const std::string stem = dir + "/run" + std::to_string(id);
    std::ofstream csv(stem + ".csv");
    for (long c = 0; c < m; ++c)
      csv << "x" << c + 1 << ",";
    csv << "label\n";
    for (long r = 0; r < n; ++r) {
      for (long c = 0; c < m; ++c)
        csv << static_cast<int>(I.X(r, c)) << ",";
      csv << I.labels[static_cast<std::size_t>(r)] << "\n";
    }
    std::ofstream(stem + ".args") << args << "\n";
    std::ofstream(stem + ".jsonl") << trace;
  }
  if (out.size() > (1u << 20)) {
    std::cout << out;
    out.clear();
  }
}

}  // namespace driver
