# The figure of `ssac cluster --plot` (README, "ssac cluster"): the paper's Figure 2 for one run.
# Left: the ground truth; right: the recovered labels, wrong points crossed in black, unassigned
# points as black open circles, Phase 1's estimated centers mu'_p as white triangles. Colours as in
# cli/experiment/plots.gp.
#
# ssac writes this script into a scratch directory with the files it reads, runs gnuplot there and
# keeps only the PNG:
#   values.gp      title, right_title, xname, yname: the titles and axis names
#   points.csv     x,y,truth,recovered,status (status 0 correct, 1 wrong, 2 unassigned)
#   centers.csv    x,y,cluster: the estimated centers

load 'values.gp'
set datafile separator ','
set terminal pngcairo size 1200,600 font 'sans,10'
set output 'plot.png'
unset key
set size ratio -1
set xlabel xname noenhanced
set ylabel yname noenhanced
color(l) = l == 0 ? 0xbbbbbb : l == 1 ? 0x1f77b4 : l == 2 ? 0xff7f0e : l == 3 ? 0x2ca02c : \
  l == 4 ? 0xd62728 : l == 5 ? 0x9467bd : l == 6 ? 0x8c564b : l == 7 ? 0xe377c2 : \
  l == 8 ? 0x17becf : l == 9 ? 0xbcbd22 : 0x7f7f7f
set multiplot layout 1,2 title title noenhanced
set title "ground truth"
plot 'points.csv' every ::1 using 1:2:(color($3)) with points pt 7 ps 0.4 lc rgb variable
set title right_title noenhanced
plot 'points.csv' every ::1 using ($5 == 0 ? $1 : 1/0):2:(color($4)) with points pt 7 ps 0.4 \
       lc rgb variable, \
     'points.csv' every ::1 using ($5 == 1 ? $1 : 1/0):2:(color($4)) with points pt 7 ps 0.6 \
       lc rgb variable, \
     'points.csv' every ::1 using ($5 == 1 ? $1 : 1/0):2 with points pt 2 ps 1.3 lw 2 \
       lc rgb 'black', \
     'points.csv' every ::1 using ($5 == 2 ? $1 : 1/0):2 with points pt 6 ps 1.2 lw 1.5 lc rgb 'black', \
     'centers.csv' every ::1 using 1:2 with points pt 9 ps 2.2 lc rgb 'white', \
     'centers.csv' every ::1 using 1:2 with points pt 8 ps 2.2 lw 1.5 lc rgb 'black'
unset multiplot
