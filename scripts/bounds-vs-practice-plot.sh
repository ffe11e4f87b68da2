#!/usr/bin/env bash
# The plot of theory / empirical (Theorem 1's eta_random over the empirical eta of `ssac
# calibrate`) across the gamma windows x q, from the committed calibrate outputs that
# scripts/bounds-vs-practice.sh wrote (docs/bounds-vs-practice/calibrate-*.txt). A window's point
# sits at its upper end gamma_max (where the theory is evaluated); the hardest instance `ssac
# harden` found in a window at the same gamma_max, with the theory at gamma_max too. One panel per failure event; log axes (of gamma - 1 and of the ratio).
# Runs nothing but awk and gnuplot (seconds).
#
# Usage: bash scripts/bounds-vs-practice-plot.sh [DIR [OUT.png]]
#   (defaults docs/bounds-vs-practice and docs/figures/bounds-vs-practice.png)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-docs/bounds-vs-practice}
out=${2:-docs/figures/bounds-vs-practice.png}
command -v gnuplot >/dev/null || { echo "bounds-vs-practice-plot: gnuplot is needed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One row per calibrate output with an empirical eta: event source q gamma theory empirical. A
# fixed dataset's file is named calibrate-hardest-LO-HI-...: its point is drawn at its window's
# upper end HI with the theory at HI (from a window's output with the same q), as the windows'.
# When no grid value passed, the ratio with the grid's largest value is an upper bound (drawn as
# a downward triangle).
for f in "$dir"/calibrate-*.txt; do
  awk -v file="$(basename "$f")" '
    /^calibrate eta on / && /window/ { match($0, /<= [0-9.]+/); g = substr($0, RSTART + 3, RLENGTH - 3)
                                       src = "generator"; if ($0 ~ /window 1 < gamma <= 1.1 /) src = "paper-main" }
    /^calibrate eta on / && !/window/ { split(file, part, "-"); g = part[4]; src = "hardest" }
    /^random-weak oracle q = / { q = $5; sub(/,$/, "", q)
                                 ev = ($0 ~ /not recovered exactly/) ? "recovery" : "fewer-clusters" }
    /^empirical eta = / { emp = $4 }
    /^ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  (yes|no)$/ { top = $1 }
    /^no value of the grid passes/ { emp = top; if (src == "hardest") src = "hardest-above" }
    /^  eta_random \(Theorem 1\)/ { th = $4 }
    END { if (emp != "") print ev, src, q, g, th, emp }' "$f"
done >"$tmp/rows.txt"
awk 'NR == FNR { if ($2 !~ /^hardest/) th[$4 " " $3] = $5; next }
     { t = $2 ~ /^hardest/ ? th[$4 " " $3] : $5; if (t != "") print $1, $2, $3, $4, t / $6 }' \
  "$tmp/rows.txt" "$tmp/rows.txt" | sort -k1,1 -k2,2 -k3,3n -k4,4n >"$tmp/points.txt"
for ev in fewer-clusters recovery; do
  for src in generator paper-main hardest hardest-above; do
    for q in 0.7 0.85 1; do
      awk -v e="$ev" -v s="$src" -v q="$q" '$1 == e && $2 == s && $3 == q { print $4, $5 }' \
        "$tmp/points.txt" >"$tmp/$ev-$src-$q.dat"
    done
  done
done
cat >"$tmp/plot.gp" <<GP
set terminal pngcairo size 1200,640 font ",10"
set output "$out"
set multiplot layout 1,2 title "Theorem 1's eta\\\\_random / empirical eta (delta = 0.05, 95 % Clopper-Pearson, beta = 10, n = 1500, m = 2, k = 3)"
set logscale xy
set xrange [0.035:1.4]
set yrange [0.05:1e5]
set xtics ("1.05" 0.05, "1.1" 0.1, "1.3" 0.3, "2" 1)
set format y "10^{%L}"
set xlabel "the window's upper end gamma_max (axis: log of gamma_max - 1)" noenhanced
set ylabel "theory / empirical"
set grid
set key below font ",9" maxrows 5 width -6
c07 = "#1f77b4"; c085 = "#ff7f0e"; c1 = "#2ca02c"
do for [ev in "fewer-clusters recovery"] {
  set title (ev eq "recovery" ? "exact recovery (Theorem 1's event)" : "#Failure: fewer than k clusters (Section 5.2)")
  plot "$tmp/".ev."-generator-0.7.dat" using (\$1 - 1):2 with linespoints pt 7 lc rgb c07 title "generator, q = 0.7", \
       "$tmp/".ev."-generator-0.85.dat" using (\$1 - 1):2 with linespoints pt 7 lc rgb c085 title "generator, q = 0.85", \
       "$tmp/".ev."-generator-1.dat" using (\$1 - 1):2 with linespoints pt 7 lc rgb c1 title "generator, q = 1", \
       "$tmp/".ev."-paper-main-0.7.dat" using (\$1 - 1):2 with points pt 6 ps 1.5 lc rgb c07 title "generator (1, 1.1], q = 0.7", \
       "$tmp/".ev."-paper-main-0.85.dat" using (\$1 - 1):2 with points pt 6 ps 1.5 lc rgb c085 title "generator (1, 1.1], q = 0.85", \
       "$tmp/".ev."-paper-main-1.dat" using (\$1 - 1):2 with points pt 6 ps 1.5 lc rgb c1 title "generator (1, 1.1], q = 1", \
       "$tmp/".ev."-hardest-0.7.dat" using (\$1 - 1):2 with points pt 5 ps 1.3 lc rgb c07 title "hardest found, q = 0.7", \
       "$tmp/".ev."-hardest-0.85.dat" using (\$1 - 1):2 with points pt 5 ps 1.3 lc rgb c085 title "hardest found, q = 0.85", \
       "$tmp/".ev."-hardest-1.dat" using (\$1 - 1):2 with points pt 5 ps 1.3 lc rgb c1 title "hardest found, q = 1", \
       "$tmp/".ev."-hardest-above-0.7.dat" using (\$1 - 1):2 with points pt 11 ps 1.5 lc rgb c07 title "hardest found, no eta of the grid passes (ratio below), q = 0.7", \
       "$tmp/".ev."-hardest-above-0.85.dat" using (\$1 - 1):2 with points pt 11 ps 1.5 lc rgb c085 title "hardest found, no eta of the grid passes, q = 0.85", \
       "$tmp/".ev."-hardest-above-1.dat" using (\$1 - 1):2 with points pt 11 ps 1.5 lc rgb c1 title "hardest found, no eta of the grid passes, q = 1"
}
unset multiplot
GP
gnuplot "$tmp/plot.gp" 2> >(grep -v 'empty\|no valid points' >&2 || true)
cat "$tmp/points.txt"
echo "bounds-vs-practice-plot: wrote $out"
