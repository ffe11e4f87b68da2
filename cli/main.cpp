// ssac: the command-line program; everything is in app.cpp.
#include "commands.hpp"

int main(int argc, char** argv) {
  return ssac::cli::run_app(argc, argv, /*parse_only=*/false);
}
