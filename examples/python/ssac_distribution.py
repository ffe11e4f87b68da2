#!/usr/bin/env python3
"""Runs an instance of the ssac distribution corpus N times with this implementation's own random
numbers and writes one outcome per line, for `ssac gof` (docs/conformance.md, "Distributional
conformance").

Standard library only. The algorithm is ssac() of ssac_conformance.py (Kim & Ghosh, Algorithms
1-4); here it draws its own samples (random.Random, seeded) and asks its own oracle: perfect,
random-weak (Definition 5) or local distance-weak (Definition 6). The outcome of a run is the
corpus's: the final labels joined by ',', then ';' the queries of Phase 1, ';' those of Phase 2.

--bug NAME injects one of the mistakes a replay of a trace cannot see (their draws and answers are
recorded, so a replay takes them as given):
  B-without-replacement        B is drawn without replacement from Z_p (at most |Z_p| rows)
  phase1-without-replacement   the Phase-1 sample is drawn without replacement (at most |S_i|)
  index-draw                   a uniform index that never returns the last element of its pool
  abstention-rate              the random-weak oracle abstains with probability 1 - q^2
  definition6-max              Definition 6 (a) with max{...} instead of min{...}

With --traces DIR each run is also written as a trace, DIR/run-NNNNN.jsonl (docs/trace-format.md),
for `ssac choices`, which tests the draws and answers the traces record against their exact law
(docs/conformance.md, "The law of the choices").

Usage: ssac_distribution.py INSTANCE.json --runs N --seed S [--bug NAME] [--out FILE]
                            [--traces DIR]
"""
import argparse
import json
import os
import random
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ssac_conformance import dist, ssac, trace_header  # noqa: E402

BUGS = ("B-without-replacement", "phase1-without-replacement", "index-draw", "abstention-rate",
        "definition6-max")


def read_instance(path):
    """The instance's JSON and its data: points and the oracle's labels (column 'label')."""
    inst = json.load(open(path))
    if "semantics" in inst or inst.get("algorithm", "weak") != "weak" or \
            inst.get("oracle", {}).get("memory"):
        raise SystemExit(f"{path}: this implementation runs weak SSAC under the paper's rules, "
                         "with a fresh-abstention oracle, only")
    with open(os.path.join(os.path.dirname(os.path.abspath(path)), inst["data"])) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    li = header.index("label")
    X = [[float(v) for c, v in enumerate(r) if c != li] for r in rows]
    labels = [int(r[li]) for r in rows]
    return inst, X, labels


def make_oracle(spec, X, labels, rng, bug):
    """Q(x, y) of the instance's oracle: 'yes', 'no' or 'not-sure'."""
    def truth(x, y):
        return "yes" if labels[x] == labels[y] else "no"

    model = spec["model"]
    if model == "perfect":
        return lambda x, y, phase, purpose: truth(x, y)
    if model == "random":
        q = Fraction(spec["q"])
        p_answer = float(q * q if bug == "abstention-rate" else q)
        # Definition 5: a definite (truthful) answer with probability q, independently per query.
        return lambda x, y, phase, purpose: truth(x, y) if rng.random() < p_answer else "not-sure"
    if model == "local":
        nu, rho = spec["nu"], spec["rho"]
        K = max(labels)
        mean = [[sum(X[i][c] for i in range(len(X)) if labels[i] == t) /
                 labels.count(t) for c in range(len(X[0]))] for t in range(1, K + 1)]
        to_mean = [dist(X[i], mean[labels[i] - 1]) for i in range(len(X))]
        radius = [max(to_mean[i] for i in range(len(X)) if labels[i] == t) for t in range(1, K + 1)]
        pick = max if bug == "definition6-max" else min

        def local(x, y, phase, purpose):
            d = dist(X[x], X[y])
            if labels[x] == labels[y]:  # Definition 6 (b)
                return "not-sure" if d > 2 * rho * radius[labels[x] - 1] else "yes"
            # Definition 6 (a)
            return "not-sure" if d < (nu - 1) * pick(to_mean[x], to_mean[y]) else "no"
        return local
    raise ValueError(f"oracle model {model!r} is not implemented here")


def header_oracle(spec):
    """The trace header's oracle object (docs/trace-format.md) of the instance's oracle."""
    if spec["model"] == "random":
        return {"kind": "random", "q": float(Fraction(spec["q"]))}
    if spec["model"] == "local":
        return {"kind": "local", "nu": float(spec["nu"]), "rho": float(spec["rho"])}
    return {"kind": spec["model"]}


def runs(inst, X, labels, n_runs, seed, bug=None, traces=None):
    """The outcomes of n_runs runs from one seed; with traces (a directory), each run's trace too."""
    rng = random.Random(seed)
    oracle = make_oracle(inst["oracle"], X, labels, rng, bug)

    def index(n):
        if bug == "index-draw":
            return rng.randrange(n - 1) if n > 1 else 0
        return rng.randrange(n)

    def choose(pool, what):
        return pool[index(len(pool))]

    draw_many = None
    if bug in ("B-without-replacement", "phase1-without-replacement"):
        which = "B" if bug == "B-without-replacement" else "phase1"

        def draw_many(pool, count, what):
            if what == which:
                return rng.sample(pool, min(count, len(pool)))
            return [choose(pool, what) for _ in range(count)]

    p = inst["params"]
    out = []
    for run in range(n_runs):
        ev, labs = ssac(X, p["k"], p["eta"], p["beta"], inst["search"], True, choose, oracle,
                        draw_many=draw_many)
        if traces is not None:
            h = trace_header(X, p["k"], p["eta"], p["beta"], inst["search"],
                             oracle=header_oracle(inst["oracle"]))
            with open(os.path.join(traces, f"run-{run + 1:05d}.jsonl"), "w") as f:
                for e in [h] + ev:
                    f.write(json.dumps(e, separators=(",", ":")) + "\n")
        final = ev[-1]
        out.append(",".join(map(str, labs)) + f";{final['queries_phase1']};{final['queries_phase2']}")
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("instance")
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--bug", choices=BUGS)
    ap.add_argument("--out")
    ap.add_argument("--traces", help="directory to write each run's trace into")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be at least 1")
    inst, X, labels = read_instance(a.instance)
    if a.traces:
        os.makedirs(a.traces, exist_ok=True)
    text = "\n".join(runs(inst, X, labels, a.runs, a.seed, a.bug, a.traces)) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
