#!/usr/bin/python3
"""Tallies the cross-over of scripts/authors_crossover.py (docs/reproduction.md, "The
paper-highdim residue") with exact intervals, and prints them as JSON.

    crossover_tally.py [--fits K] FILE...

Each FILE holds the lines authors_crossover.py printed: `rep A B C D` (its first version, one fit
of each kind per rep) or `rep A0 B0 C0 D0 A B C D` (fit 0 of each kind, then the failures among K
fits of each kind, K = --fits, default 4). A rep number may appear once in all the files.

A = the authors' algorithm on `ssac generate`'s data, B = the authors-code profile on the
authors' generator's data, C = the authors' algorithm on the authors' data, D = the profile on
`ssac generate`'s data. Reported:
- arms: each kind's failures among the fit-0 runs (one per data set, so independent), with its
  exact 95% Clopper-Pearson interval;
- generator: B0 + C0 (the authors' data) against A0 + D0 (the reference's), fit 0 only: the data
  sets are independent, so the counts are independent binomials;
- algorithm: A + C (the authors' code) against B + D (the profile) over every fit: on each data set
  both algorithms make the same number of fits, so, given the data sets, a failure is the authors'
  code's with probability R / (1 + R) whatever the data set's own failure rate (R the ratio of the
  two algorithms' rates; exact in the Poisson limit of rare failures); also over fit 0 only;
- for a comparison of two halves with equal numbers of fits: the ratio of their failures, its
  exact conditional 95% interval (Clopper-Pearson on the share of the first half among all
  failures, mapped to R = share / (1 - share)), the exact conditional two-sided p of R = 1
  (binomial test), and the ratio that 80% power at two-sided 5% resolves at this many failures
  (exp(2.80 sqrt(1/F1 + 1/F2)) with F1 = F2 = half the failures);
- rep_ranges_first_last_fits: the reps read, as runs of consecutive reps with their fits per kind;
- within_data: for the K-fit reps, how many data sets of each generator had 2 or more failures
  among their 2K fits, against the number expected were the fits independent of the data set
  (binomial with that generator's pooled rate): more means the data set itself matters, and the
  fit-0 comparison of the generators is the exact one.
"""
import argparse
import json
import math
import sys

from scipy.stats import binom, binomtest


def clopper_pearson(x, n):
    ci = binomtest(x, n, 0.5).proportion_ci(0.95, "exact")
    return [ci.low, ci.high]


def ratio(f1, f2, fits):
    """Two halves of `fits` fits each, with f1 and f2 failures."""
    t = f1 + f2
    out = {"fits_per_half": fits, "failures": [f1, f2],
           "rates_pct": [100 * f1 / fits, 100 * f2 / fits]}
    if t == 0:
        return out
    share = binomtest(f1, t, 0.5)
    lo, hi = share.proportion_ci(0.95, "exact")
    out["ratio"] = f1 / f2 if f2 else math.inf
    out["ratio_ci95"] = [lo / (1 - lo), hi / (1 - hi) if hi < 1 else math.inf]
    out["p_two_sided"] = share.pvalue
    out["resolves_at_80pct_power"] = math.exp(2.80 * math.sqrt(4 / t))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fits", type=int, default=4)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    seen = set()
    first = [0, 0, 0, 0]  # fit-0 failures of A B C D
    reps1 = repsk = 0
    allfits = [0, 0, 0, 0]  # failures over every fit of A B C D
    nfits = 0  # fits per kind
    multi = {"authors": [0, 0], "reference": [0, 0]}  # data sets with >= 2 failures, K-fit reps
    ranges = []  # [first rep, last rep, fits per kind] of each run of consecutive reps
    for path in a.files:
        with open(path) as f:
            for line in f:
                w = [int(v) for v in line.split()]
                k = 1 if len(w) == 5 else a.fits
                if ranges and ranges[-1][1] + 1 == w[0] and ranges[-1][2] == k:
                    ranges[-1][1] = w[0]
                else:
                    ranges.append([w[0], w[0], k])
                if len(w) not in (5, 9):
                    sys.exit(f"crossover_tally: {path}: a line of {len(w)} numbers, not 5 or 9")
                if w[0] in seen:
                    sys.exit(f"crossover_tally: {path}: rep {w[0]} appears twice")
                seen.add(w[0])
                for i in range(4):
                    first[i] += w[1 + i]
                if len(w) == 5:
                    reps1 += 1
                    nfits += 1
                    for i in range(4):
                        allfits[i] += w[1 + i]
                else:
                    repsk += 1
                    nfits += a.fits
                    for i in range(4):
                        allfits[i] += w[5 + i]
                    multi["reference"][0] += w[5] + w[8] >= 2
                    multi["authors"][0] += w[6] + w[7] >= 2
    reps = reps1 + repsk
    kinds = "ABCD"
    arms = {k: {"failures": first[i], "fits": reps, "rate_pct": 100 * first[i] / reps,
                "ci95_pct": [100 * v for v in clopper_pearson(first[i], reps)]}
            for i, k in enumerate(kinds)}
    # Data sets with >= 2 failures among 2K fits, were fits independent of the data set.
    rate_ref = (allfits[0] + allfits[3]) / (2 * nfits)
    rate_auth = (allfits[1] + allfits[2]) / (2 * nfits)
    multi["reference"][1] = repsk * binom.sf(1, 2 * a.fits, rate_ref)
    multi["authors"][1] = repsk * binom.sf(1, 2 * a.fits, rate_auth)
    out = {
        "reps": reps, "reps_one_fit": reps1, "reps_k_fits": repsk, "k": a.fits,
        "rep_ranges_first_last_fits": ranges,
        "fit0": arms,
        "fits_per_kind": nfits,
        "failures_all_fits": dict(zip(kinds, allfits)),
        "generator_authors_vs_reference_fit0": ratio(first[1] + first[2], first[0] + first[3],
                                                     2 * reps),
        "algorithm_authors_vs_profile_all_fits": ratio(allfits[0] + allfits[2],
                                                       allfits[1] + allfits[3], 2 * nfits),
        "algorithm_authors_vs_profile_fit0": ratio(first[0] + first[2], first[1] + first[3],
                                                   2 * reps),
        "generator_authors_vs_reference_all_fits": ratio(allfits[1] + allfits[2],
                                                         allfits[0] + allfits[3], 2 * nfits),
        "within_data_two_or_more_failures_observed_expected": multi,
    }
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
