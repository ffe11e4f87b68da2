// ssac: the command-line program; the parser and the dispatch to each command are app.cpp's.
#include "app.hpp"

int main(int argc, char** argv) {
  return ssac::cli::run_app(argc, argv, /*parse_only=*/false);
}
