# The figures of `ssac experiment` and `ssac merge` (docs/experiment.md, "Output directory"):
# the paper's Section 5 plots of Accuracy and #Failure against eta, a histogram of the datasets'
# gamma-margins (Definition 2), and for planar data the appendix's visualisation of one dataset
# beside the clusterings recovered on it.
#
# This script is the same for every run and reads only files in the output directory:
#   plot_values.gp                 the run's values (below), written by ssac with the CSV files
#   accuracy_BLOCK.csv             the Accuracy table of one (oracle, algorithm) block
#   failures_BLOCK.csv             the #Failure table of the same block
#   gamma_hist.csv                 the histogram's bins
#   scatter.csv, centers.csv       m = 2 only: the first rep's points, true and recovered labels,
#                                  and the estimated centers mu'_p of Phase 1
# Redraw the PNG files with: gnuplot plots.gp (gnuplot 5.2 or later: it uses arrays).
#
# plot_values.gp defines
#   where                  "n = .., m = .., k = .., window, reps", for the titles
#   eta[E], eta_label[E]   the eta values (the tables' columns) and their printed form
#   block_name[B]          "ORACLE_ALGORITHM", the tables' file-name part
#   block_oracle[B]        the oracle's name and definition
#   block_algorithm[B]     "weak SSAC" or "original SSAC"
#   block_keys[B]          the number of key columns before the eta columns (2 for nu,rho)
#   block_rows[B]          the number of rows (oracle settings) of each table
#   row_label[R]           every block's row labels, block after block ("q=0.7", "nu=1 rho=0.7")
#   hist_lo, hist_hi       the histogram's range
#   scatter                1 when scatter.csv and centers.csv were written, else 0
#   scatter_rep            the rep drawn there, scatter_gamma its gamma-margin (printed form)
#   scatter_accuracy[..]   the first block's Accuracy (%) on that rep per row and eta (printed)

load 'plot_values.gp'
set datafile separator ','

# Each table row is one curve over eta, but gnuplot draws a file's columns, not its rows. So
# the tables are first transposed into the datablock $curves, one index per curve, in the order
# the curves are drawn below. %.17g prints each value so that it reads back as the same double.
set print $curves
do for [b=1:|block_name|] {
  do for [kind in "accuracy failures"] {
    do for [i=0:block_rows[b] - 1] {
      do for [e=1:|eta|] {
        stats sprintf("%s_%s.csv", kind, block_name[b]) skip 1 every ::i::i \
          using (column(block_keys[b] + e)) nooutput
        print sprintf("%.17g,%.17g", eta[e], STATS_min)
      }
      print ""
      print ""
    }
  }
}
unset print

set key outside right top
set grid
set terminal pngcairo size 900,560 font 'sans,11'

# Section 5.3's figures: per block, Accuracy (%) and #Failure against eta on a log scale, one
# line per oracle setting.
curve = 0
first_row = 0
do for [b=1:|block_name|] {
  do for [kind in "accuracy failures"] {
    set output sprintf("%s_%s.png", kind, block_name[b])
    set title block_oracle[b] . ", " . block_algorithm[b] . "\n" . where
    set logscale x
    set xrange [eta[1] * 0.8:eta[|eta|] * 1.25]
    set xtics (eta[1])
    do for [e=2:|eta|] {
      set xtics add (eta[e])
    }
    set xlabel '{/Symbol h} (Phase-1 sampling number)'
    if (kind eq "accuracy") {
      set ylabel "Accuracy (%)"
      set yrange [*:100]
    } else {
      set ylabel "#Failure"
      set yrange [0:*]
    }
    plot for [i=0:block_rows[b] - 1] $curves index (curve + i) using 1:2 with linespoints \
      lw 2 pt (5 + 2 * i) title row_label[first_row + i + 1] noenhanced
    curve = curve + block_rows[b]
    unset logscale x
    unset xtics
    set xtics
    unset title
  }
  first_row = first_row + block_rows[b]
}

# The share of datasets per gamma bin (the paper's histograms of the margin).
set output 'gamma_hist.png'
set title "Histogram of {/Symbol g} margins (" . where . ")"
set xlabel '{/Symbol g} (margin)'
set ylabel 'share of datasets'
set xrange [hist_lo:hist_hi]
set yrange [0:*]
set style fill solid 0.6 border -1
unset key
plot 'gamma_hist.csv' every ::1 using (($1+$2)/2):4:($2-$1) with boxes lc rgb '#4477aa'
set key outside right top
set style fill empty

# The appendix's visualisation, for m = 2: one file per row of the first block, one line per
# eta, the ground truth on the left and the recovered clustering on the right. In scatter.csv
# column 3 is the truth and column 4 + row * E + eta_index the recovered labels, renamed by the
# greedy center matching of Section 5.2 (0 = unassigned, grey); the estimated centers are the
# white triangles.
if (scatter) {
  unset key
  unset logscale x
  set autoscale
  set size ratio -1
  unset grid
  unset xlabel
  unset ylabel
  # cluster id -> colour; 0 (unassigned) grey, ids beyond 10 reuse the last colour
  color(l) = l == 0 ? 0xbbbbbb : l == 1 ? 0x1f77b4 : l == 2 ? 0xff7f0e : l == 3 ? 0x2ca02c : \
    l == 4 ? 0xd62728 : l == 5 ? 0x9467bd : l == 6 ? 0x8c564b : l == 7 ? 0xe377c2 : \
    l == 8 ? 0x17becf : l == 9 ? 0xbcbd22 : 0x7f7f7f
  E = |eta|
  do for [ri=0:block_rows[1] - 1] {
    label = row_label[ri + 1]
    # The file name is the row label with its spaces and '=' signs replaced by '_'.
    file = ""
    do for [j=1:strlen(label)] {
      ch = substr(label, j, j)
      file = file . ((ch eq " " || ch eq "=") ? "_" : ch)
    }
    set terminal pngcairo size 1000,(330 * E + 60) font 'sans,10'
    set output "scatter_" . block_name[1] . "_" . file . ".png"
    set multiplot layout E,2 title block_oracle[1] . " " . label . ", rep " . scatter_rep . \
      " (gamma = " . scatter_gamma . \
      "): ground truth | recovered, white triangles = estimated centers" noenhanced
    do for [e=0:E - 1] {
      col = 4 + ri * E + e
      set title "ground truth"
      plot 'scatter.csv' every ::1 using 1:2:(color($3)) with points pt 7 ps 0.35 lc rgb variable
      set title "eta = " . eta_label[e + 1] . ": accuracy " . scatter_accuracy[ri * E + e + 1] . \
        "%" noenhanced
      plot 'scatter.csv' every ::1 using 1:2:(color(column(col))) with points pt 7 ps 0.35 \
          lc rgb variable, \
        'centers.csv' every ::1 using ($1 == ri && $2 == e ? $4 : 1/0):5 with points pt 9 \
          ps 2.2 lc rgb 'white', \
        'centers.csv' every ::1 using ($1 == ri && $2 == e ? $4 : 1/0):5 with points pt 8 \
          ps 2.2 lw 1.5 lc rgb 'black'
    }
    unset multiplot
  }
}
