// The checks of options/option_checks.hpp.
#include "options/option_checks.hpp"

#include "ssac/error.hpp"
#include "ssac/numbers.hpp"

namespace ssac::cli {

std::size_t to_size(const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi)
    throw_out_of_range(name, value, "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<std::size_t>(value);
}

std::string range_help(long long lo, long long hi) {
  return std::to_string(lo) + ".." + std::to_string(hi);
}

CLI::Option* add_seed_option(CLI::App* app, unsigned long long& seed) {
  // The range is checked by the exact reader every UINT option gets (exact_numbers).
  return app->add_option("--seed", seed, "random seed, a whole number in 0..2^64-1")
      ->capture_default_str();
}

CLI::Option* add_gaussians_option(CLI::App* app, std::string& name, GaussianMethod default_method) {
  return app
      ->add_option("--gaussians", name,
                   "the generator's Gaussian stream, default " + to_string(default_method) +
                       ": polar (version 1) | ziggurat (version 2) | polar-clusters | "
                       "ziggurat-clusters (versions 3 and 4: a stream per cluster, so rejected "
                       "draws cost fewer points; 4 is the fastest). Each version gives other "
                       "datasets from the same seed, drawn from the same law")
      ->check(CLI::IsMember(gaussian_method_names()));
}

void path_options(CLI::App* app, std::initializer_list<const char*> names) {
  for (const char* name : names)
    app->get_option(name)->check(CLI::Validator(
        [](std::string& s) { return s.empty() ? std::string("the path is empty") : std::string(); },
        "", "path"));
}

void exact_numbers(CLI::App* app) {
  for (CLI::Option* opt : app->get_options()) {
    const std::string type = opt->get_type_name();
    const int kind = type.rfind("UINT", 0) == 0    ? 1
                     : type.rfind("INT", 0) == 0   ? 2
                     : type.rfind("FLOAT", 0) == 0 ? 3
                                                   : 0;
    if (kind == 0) continue;
    opt->transform(CLI::Validator(
        [kind](std::string& s) -> std::string {
          // CLI11 puts "--NAME: " in front of the message.
          const std::string shown = "'" + number::printable(s) + "'";
          number::Status st = number::Status::ok;
          if (kind == 1) {
            unsigned long long v = 0;
            st = number::parse_uint(s, v);
            if (st == number::Status::out_of_range)
              return shown + " is outside its admissible range 0..2^64-1";
            if (st == number::Status::ok) s = std::to_string(v);
          } else if (kind == 2) {
            long long v = 0;
            st = number::parse_int(s, v);
            if (st == number::Status::out_of_range)
              return shown + " is out of range (whole numbers here lie in -2^63..2^63-1)";
            if (st == number::Status::ok) s = std::to_string(v);
          } else {
            double v = 0;
            st = number::parse_real(s, v);
            if (st == number::Status::out_of_range)
              return shown + " is out of range (beyond the largest double, about 1.8e308)";
            if (st == number::Status::ok) s = format_double(v);
          }
          if (st == number::Status::not_a_number)
            return shown + (kind == 3 ? " is not a decimal number such as 0.5 or 1e-3"
                                      : " is not a whole decimal number");
          return {};
        },
        "", "exact-number"));
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; }))
    exact_numbers(sub);
}

}  // namespace ssac::cli
