#!/usr/bin/python3
"""Cross-over of paper-highdim's dominant cell (docs/reproduction.md, "The paper-highdim residue").

    authors_crossover.py CHECKOUT SSAC TMPDIR START COUNT

q = 0.7, eta = 2, beta = 10 on n = 3000, m = 10, k = 3, sigma = 1.75, gamma in (1, 1.1]. Per rep,
one data set from each generator (the authors' gen_data.genData, numpy seeded 1000000 + rep; and
`ssac generate --shuffle --seed rep`), and four fits: A = the authors' algorithm on the
reference's data, B = the authors-code profile (`ssac cluster --semantics authors-code`) on the
authors' data, C = the authors' algorithm on the authors' data, D = the profile on the
reference's data. Prints one line per rep: rep and 1 for a failed fit (fewer than k clusters), 0
otherwise, for A B C D. CHECKOUT is the Python 3 port of docs/validate.md ("The authors' code,
traced"); this script holds none of the authors' code.
"""
import contextlib, io, os, re, subprocess, sys
import numpy as np
CHECKOUT, SSAC, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
start, count = int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, os.path.abspath(CHECKOUT))
from ssac import weakSSAC      # the authors' code
from gen_data import genData   # their generator
os.makedirs(tmp, exist_ok=True)

def authors_fit(X, y, seed):
    np.random.seed(seed)
    a = weakSSAC(X, y, 3, 0.7)
    a.set_params(2.0, 10, q=0.7)
    with contextlib.redirect_stdout(io.StringIO()):
        return 0 if a.fit() else 1

def profile_fit(path, seed):
    out = subprocess.run([SSAC, "cluster", path, "--k", "3", "--eta", "2", "--beta", "10",
                          "--oracle", "random", "--q", "0.7", "--semantics", "authors-code",
                          "--seed", str(seed)], capture_output=True, text=True, check=True).stdout
    c = int(re.search(r"clusters recovered: (\d+) of 3", out).group(1))
    return 1 if c < 3 else 0

def write_csv(path, X, y):
    with open(path, "w") as f:
        f.write(",".join(f"x{c + 1}" for c in range(X.shape[1])) + ",label\n")
        for row, t in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{int(t)}\n")

for rep in range(start, start + count):
    np.random.seed(1000000 + rep)
    with contextlib.redirect_stdout(io.StringIO()):
        Xa, ya, _ = genData(3000, 10, 3, 1.0, 1.1, 1.75).gen()
    pa = f"{tmp}/a.csv"
    write_csv(pa, Xa, ya)
    pr = f"{tmp}/r.csv"
    subprocess.run([SSAC, "generate", "--n", "3000", "--m", "10", "--k", "3", "--gamma-min", "1",
                    "--gamma-max", "1.1", "--seed", str(rep), "--shuffle", "--out", pr],
                   capture_output=True, check=True)
    D = np.loadtxt(pr, delimiter=",", skiprows=1)
    Xr, yr = D[:, :-1], D[:, -1].astype(int)
    fA = authors_fit(Xr, yr, 2000000 + rep)
    fB = profile_fit(pa, rep)
    fC = authors_fit(Xa, ya, 3000000 + rep)
    fD = profile_fit(pr, rep)
    print(rep, fA, fB, fC, fD, flush=True)
