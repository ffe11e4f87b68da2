#!/usr/bin/env python3
"""Runs a small, independent SSAC implementation against the ssac conformance corpus.

Standard library only. For each test with a trace, the implementation below gets the trace's
random choices (Phase-1 draws, draws of B) and the oracle's answers, runs SSAC with weak oracles
(Kim & Ghosh, Algorithms 1-4) and compares its own queries, search steps, radii and labels with
the trace. Tests marked "invalid" must be refused. Besides the paper's rules it implements the
rules a trace header may name in "rules" (the authors-code profile, proofs-notes/semantics.md S9):
the anchor as the lowest labelled row, labelled openers with overwriting and forgetting, C'_p as a
prefix, the sample cap and asked self-pairs; a header with a rule value it does not know is counted
as skipped, not passed. Usage: ssac_conformance.py CONFORMANCE_DIR
"""
import hashlib
import json
import math
import os
import struct
import sys


class Mismatch(Exception):
    pass


class Skipped(Exception):
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


def check_params(n, k, eta, beta):
    if not (1 <= k <= n) or not (eta > 0) or not (1 <= beta <= 1000000):
        raise ValueError("parameter out of range")


PAPER_RULES = {"anchor": "opener", "phase2": "radius", "overwrite": "off", "sample-cap": "off",
               "self-pairs": "off", "empty-recovers": "off"}
KNOWN_VALUES = {"anchor": {"opener", "lowest-labelled-row"}, "phase2": {"radius", "prefix"},
                "elimination": {"on", "off"}}


def ssac(X, k, eta, beta, search, elimination, draws1, draws2, answers, rules=PAPER_RULES):
    """Algorithm 1 with the searches of Algorithms 2-4 (or the plain search). Returns (events,
    labels) where events are (kind, payload) tuples compared with the trace."""
    n = len(X)
    check_params(n, k, eta, beta)
    r = math.ceil(k * eta)
    draws1, draws2, answers = iter(draws1), iter(draws2), iter(answers)
    out, labels, S = [], [0] * n, list(range(n))
    known, opener = [], {}  # cluster numbers in discovery order; each one's opening row
    overwrite = rules["overwrite"] == "on"

    def asks(x, y):  # a point is in its own cluster (S4) unless self-pairs are asked
        return x != y or rules["self-pairs"] == "on"

    def anchor(t):
        if rules["anchor"] == "opener":
            return opener[t]
        rows = [x for x in range(n) if labels[x] == t or (not overwrite and x == opener[t])]
        return rows[0] if rows else opener[t]

    def ask(x, y, phase, purpose):
        q = next(answers, None)
        if q is None or (q["x"], q["y"], q["phase"], q["purpose"]) != (x, y, phase, purpose):
            raise Mismatch(f"asked Q({x}, {y}) {purpose}, trace has {q and (q['x'], q['y'], q['purpose'])}")
        return q["answer"]

    def assign(x):
        ys = [anchor(t) for t in known]
        if not asks(x, x) and x in ys:  # a point is in its own cluster: no query
            return known[ys.index(x)]
        a = [ask(x, y, 1, "assignment") for y in ys]
        if "yes" in a:
            return known[a.index("yes")]
        if a.count("no") == len(known) and len(known) < k:
            t = min(set(range(1, k + 1)) - set(known))  # the smallest number not known
            known.append(t)
            opener[t] = x
            if overwrite:
                labels[x] = t
            return t
        if elimination and len(known) == k and a.count("not-sure") == 1 and a.count("no") == k - 1:
            return known[a.index("not-sure")]
        return 0

    for i in range(1, k + 1):
        if not S:
            out.append(("outcome", i, "empty_remainder", None))
            break
        Z = [next(draws1) for _ in range(min(r, len(S)) if rules["sample-cap"] == "on" else r)]
        if any(z not in S for z in Z):
            raise Mismatch(f"iteration {i}: a Phase-1 draw is not in S_i")
        t = [assign(x) for x in Z]
        counts = [t.count(c) for c in known]
        if not any(counts):
            out.append(("outcome", i, "phase1_all_not_sure", None))
            continue
        p = known[counts.index(max(counts))]  # ties: the earliest-discovered cluster
        Zp = [z for z, c in zip(Z, t) if c == p]
        mu = [sum(X[z][c] for z in Zp) / len(Zp) for c in range(len(X[0]))]
        d = {x: dist(X[x], mu) for x in S}
        srt = sorted(S, key=lambda x: (d[x], x))
        x1, lo, hi, failed = srt[0], 0, len(srt) - 1, False
        while lo <= hi:
            j = (lo + hi) // 2
            xj = srt[j]
            if search in ("distance", "plain"):
                a = srt[0] if search == "distance" else Zp[0]
                dec = "in" if not asks(a, xj) or ask(a, xj, 2, "search_anchor") == "yes" else "out"
            else:
                a = None
                if search == "unified" and asks(x1, xj):
                    a = ask(x1, xj, 2, "search_anchor")
                if search == "unified" and (not asks(x1, xj) or a != "not-sure"):
                    dec = "in" if not asks(x1, xj) or a == "yes" else "out"
                else:
                    votes = []
                    for _ in range(beta if search == "random" else beta - 1):
                        y = next(draws2)
                        if y not in Zp:
                            raise Mismatch(f"iteration {i}: B draws row {y} outside Z_p")
                        if not asks(y, xj):
                            votes.append("yes")
                        elif search == "random":
                            votes.append(ask(y, xj, 2, "search_sample"))
                        else:
                            votes.append(ask(xj, y, 2, "search_sample"))
                    dec = "in" if "yes" in votes else "out" if "no" in votes else "fail"
                    if dec == "fail" and search == "unified":
                        dec = "out"
            out.append(("step", i, j, xj, dec))
            if dec == "fail":
                failed = True
                break
            lo, hi = (j + 1, hi) if dec == "in" else (lo, j - 1)
        if failed:
            out.append(("outcome", i, "search_failed", None))
            continue
        radius = d[srt[lo]] if lo < len(srt) else math.inf
        if rules["phase2"] == "prefix":  # the first j* rows of the order
            members = sorted(srt[:lo])
        else:
            members = [x for x in S if d[x] < radius]  # strict (Algorithm 1, line 13)
        for x in members:
            labels[x] = p
        S = [x for x in S if x not in set(members)]
        if overwrite:  # a known cluster left with no labelled row is forgotten
            known[:] = [t for t in known if t in labels]
        out.append(("outcome", i, "recovered" if members else "empty_cluster", (lo, radius, members)))
    return out, labels


def expected(trace):
    ev = []
    for e in trace:
        if e["event"] == "step":
            ev.append(("step", e["iteration"], e["j"], e["row"], e["decision"]))
        elif e["event"] == "outcome":
            extra = None
            if e["j_star"] is not None:
                rad = math.inf if e["radius"] == "inf" else e["radius"]
                extra = (e["j_star"], rad, e["assigned"])
            ev.append(("outcome", e["iteration"], e["outcome"], extra))
    return ev


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
    rules = dict(PAPER_RULES)
    for word in tr[0].get("rules", "").split():
        name, value = word.split("=", 1)
        if value not in KNOWN_VALUES.get(name, {"on", "off"}):
            raise Skipped(word)
        rules[name] = value
    # An oracle with per-pair memory gives a repeated pair (in either order) its first answer.
    if tr[0].get("oracle_memory", "fresh") == "per-pair":
        first = {}
        for e in tr:
            if e["event"] == "query":
                a = first.setdefault((min(e["x"], e["y"]), max(e["x"], e["y"])), e["answer"])
                if a != e["answer"]:
                    raise Mismatch(f"per-pair memory: Q({e['x']}, {e['y']}) answered {a}, then {e['answer']}")
    draws1 = [r for e in tr if e["event"] == "sample" for r in e["rows"]]
    draws2 = [r for e in tr if e["event"] == "step" for r in e["sample"]]
    answers = [e for e in tr if e["event"] == "query"]
    # Elimination needs the point's cluster among the k: not when the header says the oracle has
    # another number of clusters (semantics S2).
    clusters = tr[0].get("oracle_clusters", prm["k"])
    got, labels = ssac(X, prm["k"], prm["eta"], prm["beta"], search,
                       prm["assignment"] == "paper" and clusters == prm["k"],
                       draws1, draws2, answers, rules)
    want = expected(tr)
    for a, b in zip(got, want):
        if a != b:
            raise Mismatch(f"expected {b}, computed {a}")
    if len(got) != len(want) or labels != tr[-1]["labels"]:
        raise Mismatch("labels or number of events")


def main(directory):
    manifest = json.load(open(os.path.join(directory, "manifest.json")))
    passed = failed = skipped = 0
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
                except Skipped:
                    skipped += 1
                except (Mismatch, StopIteration) as e:
                    failed += 1
                    print(f"{f['file']} tcId {t['tcId']} ({t['comment']}): {e}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped (a rule value this consumer does "
          "not implement)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "conformance"))
