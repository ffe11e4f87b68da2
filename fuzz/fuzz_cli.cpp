// libFuzzer target for the command-line parser (cli/app.cpp with every command's options, parsed
// by CLI11, without running the command). The input is split at NUL bytes into at most 24
// arguments after the program name. Whatever the arguments, run_app must return a documented exit
// status (0 help or success, 2 usage) without crashing, tripping a sanitizer or throwing.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "app.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"ssac"};
  std::string cur;
  for (std::size_t i = 0; i < size && args.size() < 25; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (args.size() < 25 && !cur.empty()) args.push_back(cur);
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  // Help texts and error lines are not the point here; keep the fuzzer's output readable.
  std::cout.setstate(std::ios::badbit);
  std::cerr.setstate(std::ios::badbit);
  const int status = ssac::cli::run_app(static_cast<int>(args.size()), argv.data(), true);
  std::cout.clear();
  std::cerr.clear();
  if (status != 0 && status != 2) std::abort();
  return 0;
}
