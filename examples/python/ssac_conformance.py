#!/usr/bin/env python3
"""Runs a small, independent SSAC implementation against the ssac conformance corpus.

Standard library only. For each test with a trace, the implementation below (ssac()) gets the
trace's random choices (Phase-1 draws, draws of B) and the oracle's answers, runs SSAC with weak
oracles (Kim & Ghosh, Algorithms 1-4), writes its own run as trace events and compares them with
the trace's, field by field. Tests marked "invalid" must be refused.
Usage: ssac_conformance.py CONFORMANCE_DIR

The same ssac() with its own random choices and oracle writes a trace that the reference replays
through the Python module: validate_with_module.py.
"""
import hashlib
import json
import math
from fractions import Fraction
import os
import struct
import sys


class Mismatch(Exception):
    pass


def fingerprint(points):
    """docs/trace-format.md, "Fingerprint": SHA-256 of the canonical little-endian bytes."""
    b = b"ssac-points-v1\n" + struct.pack("<QQ", len(points), len(points[0]))
    for p in points:
        for v in p:
            b += struct.pack("<d", 0.0 if v == 0 else float(v))
    return "sha256:" + hashlib.sha256(b).hexdigest()


def dist(a, b):
    return math.sqrt(sum((x - y) * (x - y) for x, y in zip(a, b)))


def sample_size(k, eta):
    """r = ceil(k eta) of the exact real product (a double times an integer is a rational);
    math.ceil(k * eta) would take the ceiling of the rounded product, which for k = 3 and
    eta = nextafter(1/3, 1) is 1 instead of 2."""
    return math.ceil(Fraction(k) * Fraction(eta))


def check_params(n, k, eta, beta):
    if not (1 <= k <= n) or not (eta > 0) or not (1 <= beta <= 1000000):
        raise ValueError("parameter out of range")


def trace_header(X, k, eta, beta, search, elimination=True, seed=None):
    """The header event of a trace of this implementation's run (docs/trace-format.md)."""
    h = {"event": "header", "format": "ssac-trace", "version": 1,
         "algorithm": "original" if search == "plain" else "weak", "search": search,
         "assignment": "paper" if elimination else "code", "n": len(X), "m": len(X[0]), "k": k,
         "eta": float(eta), "beta": beta, "r": sample_size(k, eta), "fingerprint": fingerprint(X)}
    if seed is not None:
        h["seed"] = seed
    return h


def ssac(X, k, eta, beta, search, elimination, choose, oracle):
    """Algorithm 1 with the searches of Algorithms 2-4 (or the original SSAC's plain search).

    choose(pool, what) returns one element of pool: what is "phase1" (pool = S_i in increasing
    row order, Algorithm 1 line 4, with replacement) or "B" (pool = Z_p in draw order, Algorithms
    2 and 4). oracle(x, y, phase, purpose) answers Q(x, y): "yes", "no" or "not-sure". Returns
    (events, labels): the run as trace events after the header (docs/trace-format.md)."""
    n = len(X)
    check_params(n, k, eta, beta)
    r = sample_size(k, eta)
    ev, anchors, labels, S = [], [], [0] * n, list(range(n))
    recovered, not_recovered, asked = [], [], [0, 0]

    def ask(i, x, y, phase, purpose):
        a = oracle(x, y, phase, purpose)
        ev.append({"event": "query", "iteration": i, "phase": phase, "purpose": purpose,
                   "x": x, "y": y, "answer": a})
        asked[phase - 1] += 1
        return a

    def assign(i, x):  # Definition 4, against the rows that opened clusters (S3)
        if x in anchors:  # a point is in its own cluster: no query (S4)
            return anchors.index(x) + 1
        a = [ask(i, x, anchors[t], 1, "assignment") for t in range(len(anchors))]
        if "yes" in a:
            return a.index("yes") + 1
        if a.count("no") == len(anchors) and len(anchors) < k:
            anchors.append(x)
            return len(anchors)
        if elimination and len(anchors) == k and a.count("not-sure") == 1 and a.count("no") == k - 1:
            return a.index("not-sure") + 1
        return 0

    def outcome(i, what, j_star=None, radius=None, members=()):
        ev.append({"event": "outcome", "iteration": i, "outcome": what, "j_star": j_star,
                   "radius": "inf" if radius == math.inf else radius, "assigned": list(members)})
        if what != "recovered":
            not_recovered.append(f"iteration {i}: {what}")

    for i in range(1, k + 1):
        ev.append({"event": "iteration", "iteration": i, "remaining": len(S)})
        if not S:
            outcome(i, "empty_remainder")
            break
        Z = [choose(S, "phase1") for _ in range(r)]
        ev.append({"event": "sample", "iteration": i, "rows": Z})
        t = [assign(i, x) for x in Z]
        ev.append({"event": "assignment", "iteration": i, "clusters": t})
        counts = [t.count(c) for c in range(1, len(anchors) + 1)]
        if not any(counts):
            outcome(i, "phase1_all_not_sure")
            continue
        p = counts.index(max(counts)) + 1  # ties: the earliest-discovered cluster
        Zp = [z for z, c in zip(Z, t) if c == p]
        mu = [sum(X[z][c] for z in Zp) / len(Zp) for c in range(len(X[0]))]
        d = {x: dist(X[x], mu) for x in S}
        srt = sorted(S, key=lambda x: (d[x], x))  # equal distances by row (S6)
        x1, lo, hi, failed = srt[0], 0, len(srt) - 1, False
        ev.append({"event": "cluster", "iteration": i, "p": p, "zp_size": len(Zp),
                   "revisited": p in recovered, "center": mu, "anchor": x1})
        step = 0
        while lo <= hi:
            step += 1
            j = (lo + hi) // 2
            xj, a, B, votes = srt[j], None, [], []
            if search in ("distance", "plain"):
                ref = x1 if search == "distance" else Zp[0]
                if xj != ref:
                    a = ask(i, ref, xj, 2, "search_anchor")
                dec = "in" if xj == ref or a == "yes" else "out"
            else:
                if search == "unified" and xj != x1:
                    a = ask(i, x1, xj, 2, "search_anchor")
                if search == "unified" and (xj == x1 or a != "not-sure"):
                    dec = "in" if xj == x1 or a == "yes" else "out"
                else:
                    for _ in range(beta if search == "random" else beta - 1):
                        y = choose(Zp, "B")
                        B.append(y)
                        if y == xj:
                            votes.append("yes")
                        elif search == "random":
                            votes.append(ask(i, y, xj, 2, "search_sample"))
                        else:
                            votes.append(ask(i, xj, y, 2, "search_sample"))
                    dec = "in" if "yes" in votes else "out" if "no" in votes else "fail"
                    if dec == "fail" and search == "unified":
                        dec = "out"
            ev.append({"event": "step", "iteration": i, "step": step, "lo": lo, "hi": hi, "j": j,
                       "row": xj, "anchor_answer": a, "sample": B, "sample_answers": votes,
                       "decision": dec})
            if dec == "fail":
                failed = True
                break
            lo, hi = (j + 1, hi) if dec == "in" else (lo, j - 1)
        if failed:
            outcome(i, "search_failed")
            continue
        radius = d[srt[lo]] if lo < len(srt) else math.inf
        members = [x for x in S if d[x] < radius]  # strict (Algorithm 1, line 13)
        for x in members:
            labels[x] = p
        S = [x for x in S if d[x] >= radius]
        if members and p not in recovered:
            recovered.append(p)
        outcome(i, "recovered" if members else "empty_cluster", lo, radius, members)
    if len(recovered) < k:
        not_recovered.append(f"fewer than k clusters recovered ({len(recovered)} of {k})")
    ev.append({"event": "final", "labels": labels, "status": "; ".join(not_recovered) or "ok",
               "clusters_recovered": len(recovered), "failed": len(recovered) < k,
               "queries_phase1": asked[0], "queries_phase2": asked[1]})
    return ev, labels


def same(a, b):
    """Trace values equal, numbers within 1e-9 relative (docs/trace-format.md, "Replay")."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) \
                or not isinstance(b, (int, float)):
            return False
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return type(a) is type(b) and a == b


def run_test(g, t, search):
    prm = t["params"]
    X = g["points"]
    if t["result"] == "invalid":
        try:
            check_params(len(X), prm["k"], prm["eta"], prm["beta"])
        except ValueError:
            return
        raise Mismatch("invalid parameters were accepted")
    tr = t["trace"]
    if tr[0]["fingerprint"] != fingerprint(X):
        raise Mismatch("fingerprint")
    draws = {"phase1": iter([r for e in tr if e["event"] == "sample" for r in e["rows"]]),
             "B": iter([r for e in tr if e["event"] == "step" for r in e["sample"]])}
    answers = iter([e for e in tr if e["event"] == "query"])

    def choose(pool, what):  # the trace's random choices
        row = next(draws[what], None)
        if row is None or row not in pool:
            raise Mismatch(f"{what} draw {row} is not in its pool")
        return row

    # Per-pair oracle memory (the header's oracle_memory): a pair asked again, in either order,
    # has its first answer. The original SSAC's answers are after the coin flip: not checked.
    per_pair = tr[0].get("oracle_memory", "fresh") == "per-pair" and search != "plain"
    first = {}

    def oracle(x, y, phase, purpose):  # the trace's answers, in the order asked
        q = next(answers, None)
        if q is None or (q["x"], q["y"], q["phase"], q["purpose"]) != (x, y, phase, purpose):
            raise Mismatch(f"asked Q({x}, {y}) {purpose}, trace has {q and (q['x'], q['y'], q['purpose'])}")
        a = first.setdefault((min(x, y), max(x, y)), q["answer"])
        if per_pair and a != q["answer"]:
            raise Mismatch(f"per-pair memory: Q({x}, {y}) answered {q['answer']}, first {a}")
        return q["answer"]

    # Elimination needs the point's cluster among the k: not when the header says the oracle has
    # another number of clusters (semantics S2).
    clusters = tr[0].get("oracle_clusters", prm["k"])
    got, labels = ssac(X, prm["k"], prm["eta"], prm["beta"], search,
                       prm["assignment"] == "paper" and clusters == prm["k"], choose, oracle)
    # Every event after the header, field by field.
    for line, (a, b) in enumerate(zip(got, tr[1:]), start=2):
        if not same(a, b):
            raise Mismatch(f"line {line}: expected {json.dumps(b)}, computed {json.dumps(a)}")
    if len(got) != len(tr) - 1 or labels != tr[-1]["labels"]:
        raise Mismatch("labels or number of events")


def main(directory):
    manifest = json.load(open(os.path.join(directory, "manifest.json")))
    passed = failed = 0
    for f in manifest["files"]:
        raw = open(os.path.join(directory, f["file"]), "rb").read()
        if hashlib.sha256(raw).hexdigest() != f["sha256"]:
            print(f"{f['file']}: SHA-256 does not match the manifest")
            failed += 1
            continue
        vectors = json.loads(raw)
        for g in vectors["testGroups"]:
            for t in g["tests"]:
                try:
                    run_test(g, t, vectors["search"])
                    passed += 1
                except (Mismatch, StopIteration) as e:
                    failed += 1
                    print(f"{f['file']} tcId {t['tcId']} ({t['comment']}): {e}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "conformance"))
