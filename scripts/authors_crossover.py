#!/usr/bin/python3
"""Cross-over of paper-highdim's dominant cell (docs/reproduction.md, "The paper-highdim residue").

    authors_crossover.py CHECKOUT START COUNT [FITS]

q = 0.7, eta = 2, beta = 10 on n = 3000, m = 10, k = 3, sigma = 1.75, gamma in (1, 1.1]. Per rep,
one data set from each generator (the authors' gen_data.genData, numpy seeded 1000000 + rep; and
ssac.generate(shuffle=True, seed=rep), the data of `ssac generate --shuffle --seed rep`), and FITS
(default 4) fits of each of four kinds: A = the authors' algorithm on the reference's data, B =
the authors-code profile (ssac.cluster(semantics="authors-code"), the run of `ssac cluster
--semantics authors-code`) on the authors' data, C = the authors' algorithm on the authors' data,
D = the profile on the reference's data. Fit j of a kind is seeded as the one fit of the first
version of this script (numpy 2000000 + rep for A, 3000000 + rep for C, ssac seed rep for B and
D) plus 10^7 j, so fit 0 is that version's fit.

Prints one line per rep: rep, then for A B C D whether fit 0 failed (1: fewer than k clusters
recovered, else 0), then for A B C D the failures among all FITS fits. Fit 0 alone compares the
generators over independent data sets; the FITS fits of the two algorithms on one data set are
paired, which the comparison of the algorithms uses (docs/reproduction.md). CHECKOUT is the Python
3 port of docs/validate.md ("The authors' code, traced"); this script holds none of the authors'
code. The `ssac` module must be importable (scripts/python-path.sh).
"""
import contextlib
import importlib.util
import io
import os
import sys

import numpy as np

import ssac

CHECKOUT = sys.argv[1]
start, count = int(sys.argv[2]), int(sys.argv[3])
fits = int(sys.argv[4]) if len(sys.argv) > 4 else 4
sys.path.insert(0, os.path.abspath(CHECKOUT))
from gen_data import genData  # noqa: E402  the authors' generator
# The authors' ssac.py, under another name than the reference's module.
spec = importlib.util.spec_from_file_location("authors_ssac", os.path.join(CHECKOUT, "ssac.py"))
authors = importlib.util.module_from_spec(spec)
spec.loader.exec_module(authors)
authors_ssac = authors.weakSSAC

STEP = 10**7  # between the seeds of a kind's fits


def authors_fit(X, y, seed):
    np.random.seed(seed)
    a = authors_ssac(X, y, 3, 0.7)
    a.set_params(2.0, 10, q=0.7)
    with contextlib.redirect_stdout(io.StringIO()):
        return 0 if a.fit() else 1


def profile_fit(X, y, seed):
    r = ssac.cluster(X, y, k=3, eta=2, beta=10, oracle="random", q=0.7, semantics="authors-code",
                     seed=seed)
    return 1 if r["clusters_recovered"] < 3 else 0


for rep in range(start, start + count):
    np.random.seed(1000000 + rep)
    with contextlib.redirect_stdout(io.StringIO()):
        Xa, ya, _ = genData(3000, 10, 3, 1.0, 1.1, 1.75).gen()
    d = ssac.generate(n=3000, m=10, k=3, std=1.75, gamma_min=1.0, gamma_max=1.1, seed=rep,
                      shuffle=True)
    Xr, yr = d["points"], d["labels"]
    runs = [[authors_fit(Xr, yr, 2000000 + rep + STEP * j) for j in range(fits)],
            [profile_fit(Xa, ya, rep + STEP * j) for j in range(fits)],
            [authors_fit(Xa, ya, 3000000 + rep + STEP * j) for j in range(fits)],
            [profile_fit(Xr, yr, rep + STEP * j) for j in range(fits)]]
    print(rep, *(r[0] for r in runs), *(sum(r) for r in runs), flush=True)
