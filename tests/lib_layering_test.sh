#!/usr/bin/env bash
# The reference library (lib/) computes; starting programs and drawing figures belong to the
# command line (cli/). Fails on any process control (fork, exec*, waitpid, popen, posix_spawn,
# system) or plotting (gnuplot, plot) in lib/. Usage: lib_layering_test.sh LIB_DIR
set -u
lib=$1
pattern='\b(fork|vfork|exec[lv]p?e?|waitpid|waitid|wait[34]|popen|posix_spawnp?|system)[[:space:]]*\(|<(sys/wait|unistd|spawn)\.h>|gnuplot|[Pp]lot'
if grep -rnE "$pattern" "$lib"; then
  echo "lib_layering: lib/ must not start processes or draw figures (lines above)" >&2
  exit 1
fi
echo "lib_layering: ok"
