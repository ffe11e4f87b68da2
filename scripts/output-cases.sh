# Sourced by scripts/determinism.sh and scripts/compare-outputs.sh: the commands whose outputs must
# be the same bytes however the program was built (and, for compare-outputs, before and after a
# change that claims not to move them). Each line: a name and the arguments after `ssac`, run
# inside one directory with relative file names, in this order (later cases read earlier files).
# Sets `cases`; `bin` must name a program that has the experiment command to add those cases.
cases=(
  "generate|generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 7 --out d.csv"
  "generate-highdim|generate --n 3000 --m 10 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 11 --out h.csv"
  "cluster-random|cluster d.csv --k 3 --oracle random --q 0.7 --eta 10 --seed 7 --json --out l1.csv --trace t1.jsonl"
  "cluster-local|cluster d.csv --k 3 --oracle local --nu 1.05 --rho 0.9 --eta 5 --search distance --seed 3 --json --trace t2.jsonl"
  "cluster-global|cluster h.csv --k 3 --oracle global --rho 0.95 --eta 5 --search random --seed 4 --json --trace t3.jsonl"
  "cluster-original|cluster d.csv --k 3 --oracle random --q 0.85 --eta 2 --algorithm original --seed 5 --json"
)
if "$bin" experiment --help >/dev/null 2>&1; then
  for t in 1 2 8; do
    cases+=("experiment-threads-$t|experiment --preset paper-main --reps 40 --seed 3 --threads $t --quiet --out exp$t")
  done
fi
# The generator's Gaussian stream version 2 (the ziggurat), where the program has it.
if "$bin" generate --help 2>/dev/null | grep -q -- --gaussians; then
  cases+=(
    "generate-ziggurat|generate --n 3000 --m 10 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 11 --gaussians ziggurat --out z.csv"
    "experiment-ziggurat|experiment --preset paper-highdim --reps 6 --seed 5 --threads 2 --gaussians ziggurat --quiet --out expz"
  )
fi
# Versions 3 and 4 (a stream per cluster, the hull rule in the plane), where the program has them.
if "$bin" generate --help 2>/dev/null | grep -q -- ziggurat-clusters; then
  cases+=(
    "generate-polar-clusters|generate --n 1500 --m 2 --k 3 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 7 --gaussians polar-clusters --out p3.csv"
    "generate-ziggurat-clusters|generate --n 1501 --m 2 --k 4 --std 1.75 --gamma-min 1.0 --gamma-max 1.1 --seed 8 --gaussians ziggurat-clusters --out z4.csv"
    "experiment-ziggurat-clusters|experiment --preset paper-main --reps 40 --seed 3 --threads 2 --gaussians ziggurat-clusters --quiet --out exp4"
  )
fi
