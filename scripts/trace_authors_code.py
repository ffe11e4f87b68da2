#!/usr/bin/python3
"""Trace fits of the paper authors' SSAC (github twankim/weaksemi, ssac.py) for `ssac validate`.

This script holds none of the authors' code. It imports `weakSSAC` from a checkout the user
supplies, ported to Python 3 (2to3 on ssac.py and gen_data.py; nothing else is needed), and wraps,
never replaces, four of its functions on each fit: `weakQuery` (every query and its answer),
`clusterAssign` (Phase 1's sample and its assignment), `binarySearch` (Phase 2's steps and its
outcome) and `np.random.randint` (which draws of Phase 1 and of B it made). From what they see it
writes one trace per fit in the format of docs/trace-format.md (version 3, `"semantics":
"authors-code"` and no `rules`: the replay takes the whole profile), and one CSV per data set.

    trace_authors_code.py CHECKOUT OUTDIR [--fits N] [--seed S]

draws N fits over the grid of docs/validate.md ("The authors' code, traced"): k = 3, m = 2,
n in 60..300, q in {0.7, 0.85, 1}, eta in {2, 5, 10}, beta in {2, 3}, plus rare-path settings
(grid() says which), each data set drawn by the
authors' own generator (gen_data.genData, scikit-learn's make_blobs) from numpy's global stream
seeded per fit. It writes OUTDIR/fitNNNN.csv and OUTDIR/fitNNNN.jsonl and a line per fit to
OUTDIR/fits.tsv (fit, n, q, eta, beta, gamma window, and the rare paths the fit took); then run
`ssac validate --data fitNNNN.csv --trace fitNNNN.jsonl` on each.
"""
import argparse
import contextlib
import hashlib
import io
import json
import math
import os
import struct
import sys

import numpy as np


def fingerprint(X):
    """docs/trace-format.md, "Fingerprint"."""
    n, m = X.shape
    b = bytearray(b"ssac-points-v1\n")
    b += struct.pack("<QQ", n, m)
    for row in X:
        for v in row:
            b += struct.pack("<d", float(v) + 0.0)
    return "sha256:" + hashlib.sha256(bytes(b)).hexdigest()


def answer_word(a):
    return "yes" if a > 0 else "no" if a < 0 else "not-sure"


class FitTracer:
    """Wraps one weakSSAC object's weakQuery, clusterAssign and binarySearch and np.random.randint
    for one call of fit(), and turns what they see into the trace's events."""

    def __init__(self, algo, X, k, eta, beta, q, seed):
        self.algo, self.X, self.k, self.eta, self.beta, self.q = algo, X, k, eta, beta, q
        n, m = X.shape
        self.events = [{"event": "header", "format": "ssac-trace", "version": 3,
                        "algorithm": "weak", "search": "unified", "assignment": "code",
                        "n": n, "m": m, "k": k, "eta": float(eta), "beta": beta,
                        "r": int(math.ceil(k * eta)), "fingerprint": fingerprint(X),
                        "oracle": {"kind": "random", "q": q}, "seed": seed,
                        "semantics": "authors-code"}]
        self.iteration = 0
        self.open = False          # an iteration without its outcome yet
        self.in_search = False
        self.outcomes = []
        self.queries = [0, 0, 0]   # by phase
        self.paths = set()         # rare paths seen: capped, revisit, forgotten, empty, reused

    # --- the wrappers ---------------------------------------------------------------------
    def randint(self, orig):
        def wrapped(low, high=None, size=None, *a, **kw):
            out = orig(low, high, size, *a, **kw)
            if self.in_search:
                self.b_draw(out)
            else:
                self.start_iteration(int(high), int(size))
            return out
        return wrapped

    def weak_query(self, orig):
        def wrapped(x, y):
            a = orig(x, y)
            phase = 2 if self.in_search else 1
            purpose = "assignment" if phase == 1 else self.query_purpose()
            self.queries[phase] += 1
            self.events.append({"event": "query", "iteration": self.iteration, "phase": phase,
                                "purpose": purpose, "x": int(x), "y": int(y),
                                "answer": answer_word(a)})
            if phase == 2:
                self.search_answer(a)
            return a
        return wrapped

    def cluster_assign(self, orig):
        def wrapped(idx_Z):
            self.events.append({"event": "sample", "iteration": self.iteration,
                                "rows": [int(r) for r in idx_Z]})
            known_before = list(self.algo.clusters)
            y_Z = orig(idx_Z)
            self.events.append({"event": "assignment", "iteration": self.iteration,
                                "clusters": [int(t) for t in y_Z]})
            self.y_Z, self.idx_Z = list(y_Z), list(idx_Z)
            if any(t not in known_before and t in self.ever_known for t in y_Z if t):
                self.paths.add("reused")
            self.ever_known.update(t for t in y_Z if t)
            if sum(y_Z) == 0:
                self.close("phase1_all_not_sure", None, None, [])
            return y_Z
        return wrapped

    def binary_search(self, orig):
        def wrapped(idx_S_sorted, idx_p):
            a = self.algo
            p = a.clusters[int(np.argmax([self.y_Z.count(t) for t in a.clusters]))]
            revisited = p in a.labels
            if revisited:
                self.paths.add("revisit")
            center = np.mean(self.X[idx_p, :], axis=0)
            self.sorted, self.center = [int(r) for r in idx_S_sorted], center
            self.events.append({"event": "cluster", "iteration": self.iteration, "p": int(p),
                                "zp_size": len(idx_p), "revisited": bool(revisited),
                                "center": [float(c) for c in center], "x1": self.sorted[0]})
            self.lo, self.hi, self.step = 0, len(self.sorted) - 1, None
            self.idx_p = [int(r) for r in idx_p]
            self.in_search = True
            try:
                j_star = orig(idx_S_sorted, idx_p)
            finally:
                self.in_search = False
            j_star = int(j_star)
            if j_star < len(self.sorted):
                radius = float(np.linalg.norm(self.X[self.sorted[j_star], :] - center))
            else:
                radius = "inf"
            assigned = sorted(self.sorted[:j_star])
            self.close("recovered" if assigned else "empty_cluster", j_star, radius, assigned)
            return j_star
        return wrapped

    # --- Phase 2's steps --------------------------------------------------------------------
    def query_purpose(self):
        if self.step is None:  # a probe begins with Q(x_1, x_j)
            j = (self.lo + self.hi) // 2
            self.step = {"event": "step", "iteration": self.iteration,
                         "step": self.step_no + 1, "lo": self.lo, "hi": self.hi, "j": j,
                         "row": self.sorted[j], "x1_answer": None, "sample": [],
                         "sample_answers": [], "decision": None}
            return "search_x1"
        return "search_sample"

    def search_answer(self, a):
        s = self.step
        if s["x1_answer"] is None:
            s["x1_answer"] = answer_word(a)
            if a != 0:
                self.end_step("in" if a > 0 else "out")
        else:
            s["sample_answers"].append(answer_word(a))
            if len(s["sample_answers"]) == len(s["sample"]):
                self.end_step(None)

    def b_draw(self, positions):
        self.step["sample"] = [self.idx_p[int(i)] for i in positions]
        if len(positions) == 0:
            self.end_step(None)

    def end_step(self, decision):
        s = self.step
        if decision is None:  # Algorithm 4 after a not-sure: in on a yes, else out
            decision = "in" if "yes" in s["sample_answers"] else "out"
        s["decision"] = decision
        self.events.append(s)
        if decision == "in":
            self.lo = s["j"] + 1
        else:
            self.hi = s["j"] - 1
        self.step_no += 1
        self.step = None

    # --- iterations -------------------------------------------------------------------------
    def start_iteration(self, remaining, r):
        if self.open:  # cannot happen: every iteration is closed by Phase 1 or 2
            raise RuntimeError("iteration left open")
        self.iteration += 1
        self.step_no = 0
        if r < int(math.ceil(self.k * self.eta)):
            self.paths.add("capped")
        self.events.append({"event": "iteration", "iteration": self.iteration,
                            "remaining": remaining})
        self.open = True

    def close(self, outcome, j_star, radius, assigned):
        self.events.append({"event": "outcome", "iteration": self.iteration, "outcome": outcome,
                            "j_star": j_star, "radius": radius, "assigned": assigned})
        self.outcomes.append((self.iteration, outcome))
        if outcome == "empty_cluster":
            self.paths.add("empty")
        self.open = False

    def fit(self):
        a = self.algo
        self.ever_known = set()
        orig = (a.weakQuery, a.clusterAssign, a.binarySearch, np.random.randint)
        a.weakQuery = self.weak_query(orig[0])
        a.clusterAssign = self.cluster_assign(orig[1])
        a.binarySearch = self.binary_search(orig[2])
        np.random.randint = self.randint(orig[3])
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # the code's progress prints
                ok = a.fit()
        finally:
            del a.weakQuery, a.clusterAssign, a.binarySearch
            np.random.randint = orig[3]
        if self.iteration < self.k:  # the loop stopped at an empty S_i
            self.iteration += 1
            self.events.append({"event": "iteration", "iteration": self.iteration,
                                "remaining": 0})
            self.close("empty_remainder", None, None, [])
        recovered = len(a.labels)
        if ever_forgotten(self.ever_known, a.clusters):
            self.paths.add("forgotten")
        reasons = [f"iteration {i}: {o}" for i, o in self.outcomes if o != "recovered"]
        if recovered < self.k:
            reasons.append(f"fewer than k clusters recovered ({recovered} of {self.k})")
        self.events.append({"event": "final", "labels": [int(t) for t in a.y],
                            "status": "; ".join(reasons) if reasons else "ok",
                            "clusters_recovered": recovered, "failed": recovered < self.k,
                            "queries_phase1": self.queries[1], "queries_phase2": self.queries[2]})
        if not ok:
            self.paths.add("failed")
        if any(e["event"] == "query" and e["x"] == e["y"] for e in self.events):
            self.paths.add("self-pair")
        return ok


def ever_forgotten(ever, now):
    return any(t not in now for t in ever)


def write_csv(path, X, y):
    with open(path, "w") as f:
        f.write(",".join(f"x{c + 1}" for c in range(X.shape[1])) + ",label\n")
        for row, t in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{int(t)}\n")


def grid(fits, rng):
    """(n, q, eta, beta, gamma window) per fit: the main grid (the generator's default window
    (1, 1.25]), and two fits in five on rare-path settings: small n and large eta (capped
    samples), half of them with overlapping clusters, gamma in (0.3, 1] (Phase 2 overwrites
    other clusters' rows: forgotten clusters, reused numbers, revisits, failed runs)."""
    out = []
    for i in range(fits):
        if i % 5 >= 3:
            window = (0.3, 1.0) if i % 5 == 4 else (1.0, 1.25)
            out.append((int(rng.choice([12, 15, 20, 30, 60])), float(rng.choice([0.5, 0.7, 0.85])),
                        float(rng.choice([5, 10])), int(rng.choice([2, 3])), window))
        else:
            out.append((int(rng.integers(60, 301)), float(rng.choice([0.7, 0.85, 1.0])),
                        float(rng.choice([2, 5, 10])), int(rng.choice([2, 3])), (1.0, 1.25)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", help="directory of the Python 3 port of ssac.py and gen_data.py")
    ap.add_argument("outdir")
    ap.add_argument("--fits", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--m", type=int, default=2)
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.checkout))
    from ssac import weakSSAC      # the authors' code
    from gen_data import genData   # their generator (make_blobs)
    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    with open(os.path.join(args.outdir, "fits.tsv"), "w") as tsv:
        for i, (n, q, eta, beta, window) in enumerate(grid(args.fits, rng)):
            seed = args.seed * 100000 + i
            np.random.seed(seed)
            with contextlib.redirect_stdout(io.StringIO()):
                X, y, ris = genData(n, args.m, 3, *window).gen()
            algo = weakSSAC(X, y, 3, q)
            algo.set_params(eta, beta, q=q)
            t = FitTracer(algo, X, 3, eta, beta, q, seed)
            t.fit()
            name = os.path.join(args.outdir, f"fit{i:04d}")
            write_csv(name + ".csv", X, y)
            with open(name + ".jsonl", "w") as f:
                for e in t.events:
                    f.write(json.dumps(e, separators=(",", ":")) + "\n")
            tsv.write(f"fit{i:04d}\t{n}\t{q}\t{eta}\t{beta}\t{window[0]},{window[1]}\t"
                      f"{','.join(sorted(t.paths))}\n")


if __name__ == "__main__":
    main()
