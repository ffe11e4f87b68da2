#!/usr/bin/env python3
"""Runs a small, independent SSAC implementation against the ssac conformance corpus.

Standard library only. For each test with a trace, the implementation below (ssac()) gets the
trace's random choices (Phase-1 draws, draws of B, and in a version-4 trace the anchor draws of the
random anchor rules) and the oracle's answers, runs SSAC with weak
oracles (Kim & Ghosh, Algorithms 1-4), writes its own run as trace events and compares them with
the trace's, field by field. Tests marked "invalid" must be refused. It implements the paper's rules
and the authors-code profile (params.semantics, params.rules: proofs-notes/semantics.md S9, as
docs/ describe them); a vector of a profile it is told not to run is skipped and counted.
Usage: ssac_conformance.py [--profiles paper,authors-code,custom] CONFORMANCE_DIR

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


class Skipped(Exception):
    """A vector made under a profile (params.semantics, params.rules) this run does not implement."""


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
    """The ranges of docs/conformance.md: k in [1, n], eta > 0 with r = ceil(k eta) <= 10^6 (of the
    exact product), beta in [1, 10^6]."""
    if not (1 <= k <= n) or not (eta > 0) or not (1 <= beta <= 1000000):
        raise ValueError("parameter out of range")
    if math.isinf(eta) or sample_size(k, eta) > 1000000:
        raise ValueError("parameter out of range")


# The paper's rules (S1-S8), by the names docs/trace-format.md's header field "rules" uses for them
# (proofs-notes/semantics.md, "The authors-code profile", S9). Elimination is the "assignment"
# parameter; the others are read from a vector's params.rules.
PAPER_RULES = {"anchor": "opener", "phase2": "radius", "overwrite": "off", "sample-cap": "off",
               "self-pairs": "on", "empty-recovers": "off", "b-order": "xj-first"}
# The anchor rules this implementation replays; the two random ones draw their anchors, which a
# trace of version 4 records (its "anchor" events).
ANCHOR_RULES = ("opener", "lowest-labelled-row", "random-labelled-row", "random-known-row")
RANDOM_ANCHOR_RULES = ("random-labelled-row", "random-known-row")


def parse_rules(text):
    """{"anchor": ..., ...} from "name=value name=value ..."; ValueError for a rule or value this
    implementation does not know."""
    rules = dict(PAPER_RULES)
    for word in text.split():
        name, _, value = word.partition("=")
        known = {"anchor": ANCHOR_RULES, "phase2": ("radius", "prefix"),
                 "b-order": ("xj-first", "b-first"), "elimination": ("on", "off")}.get(name, ("on", "off"))
        if (name not in rules and name != "elimination") or value not in known:
            raise ValueError(f"rule {word} not implemented")
        rules[name] = value
    return rules


def trace_header(X, k, eta, beta, search, elimination=True, seed=None, rules=None, oracle=None):
    """The header event of a trace of this implementation's run (docs/trace-format.md): version 4
    under a random anchor rule, whose anchor draws it records, else version 3. oracle, when given,
    is the header's oracle object: {"kind": ..., and its parameters}."""
    random_anchor = rules is not None and rules.get("anchor") in RANDOM_ANCHOR_RULES
    h = {"event": "header", "format": "ssac-trace", "version": 4 if random_anchor else 3,
         "algorithm": "original" if search == "plain" else "weak", "search": search,
         "assignment": "paper" if elimination else "code", "n": len(X), "m": len(X[0]), "k": k,
         "eta": float(eta), "beta": beta, "r": sample_size(k, eta), "fingerprint": fingerprint(X)}
    if oracle is not None:
        h["oracle"] = oracle
    if seed is not None:
        h["seed"] = seed
    if rules is not None and {n: rules[n] for n in PAPER_RULES} != PAPER_RULES:
        authors = {"anchor": "lowest-labelled-row", "phase2": "prefix", "overwrite": "on",
                   "sample-cap": "on", "self-pairs": "on", "empty-recovers": "on",
                   "b-order": "b-first"}
        named = {n: rules[n] for n in PAPER_RULES} == authors and not elimination
        h["semantics"] = "authors-code" if named else "custom"
        # Every rule in this order; b-order is written only when it is not the paper's.
        h["rules"] = " ".join(f"{n}={rules[n]}" for n in PAPER_RULES if n != "b-order") + \
            " elimination=" + ("on" if elimination else "off") + \
            (" b-order=b-first" if rules["b-order"] == "b-first" else "")
    return h


def ssac(X, k, eta, beta, search, elimination, choose, oracle, rules=None, draw_many=None):
    """Algorithm 1 with the searches of Algorithms 2-4 (or the original SSAC's plain search).

    choose(pool, what) returns one element of pool: what is "phase1" (pool = S_i in increasing
    row order, Algorithm 1 line 4, with replacement), "B" (pool = Z_p in draw order, Algorithms
    2 and 4) or "anchor" (pool = the rows known to be in a cluster, increasing, under a random
    anchor rule: Definition 4, proofs-notes/anchor-rules.md; each draw is an "anchor" event). oracle(x, y, phase, purpose) answers Q(x, y): "yes", "no" or "not-sure". rules
    (parse_rules; default the paper's) are the rules of S9 on which the authors' code differs.
    Returns (events, labels): the run as trace events after the header (docs/trace-format.md,
    version 4 under a random anchor rule, else 3: x1 is the point of S_i closest to mu'_p, z the plain search's first row of Z_p).
    draw_many(pool, count, what), when given, makes all `count` draws of a Phase-1 sample or of
    one B at once instead (ssac_distribution.py uses it to inject draws without replacement)."""
    rules = dict(PAPER_RULES, **(rules or {}))
    overwrite = rules["overwrite"] == "on"
    self_pairs = rules["self-pairs"] == "on"
    n = len(X)
    check_params(n, k, eta, beta)
    r = sample_size(k, eta)
    ev, labels, S = [], [0] * n, list(range(n))
    known, opener = [], {}  # cluster numbers in the order discovered; the row that opened each
    placed = [0] * n  # the cluster a Phase-1 query last placed each row in (random-known-row)
    recovered, not_recovered, asked = [], [], [0, 0]

    def ask(i, x, y, phase, purpose):
        a = oracle(x, y, phase, purpose)
        ev.append({"event": "query", "iteration": i, "phase": phase, "purpose": purpose,
                   "x": x, "y": y, "answer": a})
        asked[phase - 1] += 1
        return a

    def anchor(i, x, t):  # the row of cluster t that Definition 4 asks about (rule "anchor")
        if rules["anchor"] == "opener":
            return opener[t]
        # The rows labelled t; without overwrite the opener counts as labelled (S3); under
        # random-known-row also the rows a Phase-1 query placed in t.
        known_row = rules["anchor"] == "random-known-row"
        rows = [z for z in range(n) if labels[z] == t or (not overwrite and z == opener[t])
                or (known_row and placed[z] == t)]
        if not rows:
            return opener[t]
        if rules["anchor"] == "lowest-labelled-row":
            return rows[0]
        y = choose(rows, "anchor")  # uniform over the rows, afresh at each query
        ev.append({"event": "anchor", "iteration": i, "x": x, "cluster": t, "candidates": rows,
                   "row": y})
        return y

    def assign(i, x):  # Definition 4
        anchors = [anchor(i, x, t) for t in known]
        if not self_pairs and x in anchors:  # self-pairs=off: taken as yes, no query (S4)
            return known[anchors.index(x)]
        a = [ask(i, x, y, 1, "assignment") for y in anchors]
        if "yes" in a:
            return known[a.index("yes")]
        if a.count("no") == len(known) and len(known) < k:  # x opens a cluster (S3)
            t = min(set(range(1, k + 1)) - set(known))  # the smallest number not known
            known.append(t)
            opener[t] = x
            if overwrite:
                labels[x] = t
            return t
        if elimination and len(known) == k and a.count("not-sure") == 1 and a.count("no") == k - 1:
            return known[a.index("not-sure")]
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
        ri = min(r, len(S)) if rules["sample-cap"] == "on" else r
        Z = draw_many(S, ri, "phase1") if draw_many else [choose(S, "phase1") for _ in range(ri)]
        ev.append({"event": "sample", "iteration": i, "rows": Z})
        t = []
        for x in Z:
            t.append(assign(i, x))
            if t[-1]:
                placed[x] = t[-1]
        ev.append({"event": "assignment", "iteration": i, "clusters": t})
        counts = [t.count(c) for c in known]
        if not any(counts):
            outcome(i, "phase1_all_not_sure")
            continue
        p = known[counts.index(max(counts))]  # ties: the earliest-discovered cluster
        Zp = [z for z, c in zip(Z, t) if c == p]
        mu = [sum(X[z][c] for z in Zp) / len(Zp) for c in range(len(X[0]))]
        d = {x: dist(X[x], mu) for x in S}
        srt = sorted(S, key=lambda x: (d[x], x))  # equal distances by row (S6)
        x1, lo, hi, failed = srt[0], 0, len(srt) - 1, False
        ev.append({"event": "cluster", "iteration": i, "p": p, "zp_size": len(Zp),
                   "revisited": p in recovered, "center": mu, "x1": x1})
        step = 0
        while lo <= hi:
            step += 1
            j = (lo + hi) // 2
            xj, a, B, votes = srt[j], None, [], []
            if search in ("distance", "plain"):
                # Q(x_1, x_j) in Algorithm 3; Q(z, x_j) with z the first row of Z_p in the plain one
                ref, purpose = (x1, "search_x1") if search == "distance" else (Zp[0], "search_z")
                if xj != ref or self_pairs:
                    a = ask(i, ref, xj, 2, purpose)
                dec = "in" if a is None or a == "yes" else "out"
            else:
                if search == "unified" and (xj != x1 or self_pairs):
                    a = ask(i, x1, xj, 2, "search_x1")
                if search == "unified" and a != "not-sure":
                    dec = "in" if a is None or a == "yes" else "out"
                else:
                    m = beta if search == "random" else beta - 1
                    draws = draw_many(Zp, m, "B") if draw_many else (choose(Zp, "B") for _ in range(m))
                    for y in draws:
                        B.append(y)
                        if y == xj and not self_pairs:
                            votes.append("yes")
                        elif search == "random" or rules["b-order"] == "b-first":
                            # Q(y, x_j): Algorithm 2; in Algorithm 4 under b-order=b-first (S9)
                            votes.append(ask(i, y, xj, 2, "search_sample"))
                        else:
                            votes.append(ask(i, xj, y, 2, "search_sample"))
                    dec = "in" if "yes" in votes else "out" if "no" in votes else "fail"
                    if dec == "fail" and search == "unified":
                        dec = "out"
            own = "z_answer" if search == "plain" else "x1_answer"  # the step's own query's answer
            ev.append({"event": "step", "iteration": i, "step": step, "lo": lo, "hi": hi, "j": j,
                       "row": xj, own: a, "sample": B, "sample_answers": votes,
                       "decision": dec})
            if dec == "fail":
                failed = True
                break
            lo, hi = (j + 1, hi) if dec == "in" else (lo, j - 1)
        if failed:
            outcome(i, "search_failed")
            continue
        radius = d[srt[lo]] if lo < len(srt) else math.inf
        if rules["phase2"] == "prefix":  # the first j* rows of the order
            members = sorted(srt[:lo])
        else:  # C'_p = {x in S_i : d(x, mu'_p) < r'_i}, strict (Algorithm 1, line 13)
            members = [x for x in S if d[x] < radius]
        for x in members:
            labels[x] = p  # under overwrite, whatever label x had (an opener's) is replaced
        S = [x for x in S if x not in set(members)]
        if overwrite:  # known clusters left with no labelled row are forgotten
            for c in [c for c in known if c not in labels]:
                known.remove(c)
                del opener[c]
                placed[:] = [0 if v == c else v for v in placed]
                if c in recovered:
                    recovered.remove(c)
        if (members or rules["empty-recovers"] == "on") and p not in recovered:
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


def run_test(g, t, search, profiles):
    prm = t["params"]
    X = g["points"]
    # The profile: none named means the paper's (docs/conformance.md). A vector of a profile not
    # implemented is skipped, and counted as such, never passed.
    profile = prm.get("semantics", "paper")
    if profile not in profiles:
        raise Skipped(f"profile {profile} not implemented")
    try:
        rules = parse_rules(prm.get("rules", ""))
    except ValueError as e:
        raise Skipped(f"profile {profile}: {e}")
    if t["result"] == "invalid":
        try:
            check_params(len(X), prm["k"], prm["eta"], prm["beta"])
        except ValueError:
            return
        raise Mismatch("invalid parameters were accepted")
    replay(X, t["trace"], search, rules, prm)


def replay(X, tr, search, rules, prm):
    """Replays the trace tr (a list of events) on the points X: the implementation gets its
    choices and answers and must write the same events (Mismatch at the first that differs). prm
    holds k, eta, beta, assignment and, when a profile is named, rules and semantics."""
    random_anchor = rules["anchor"] in RANDOM_ANCHOR_RULES
    # Version 4 records the anchor draws of the random anchor rules; a run that draws none is
    # written as version 3, and version 3 cannot hold a random rule's run.
    if tr[0]["version"] not in (3, 4) or (tr[0]["version"] == 3 and random_anchor):
        raise Mismatch(f"trace format version {tr[0]['version']}, this consumer reads 3 and 4 "
                       "(4 for a random anchor rule)")
    if tr[0]["fingerprint"] != fingerprint(X):
        raise Mismatch("fingerprint")
    if tr[0].get("rules") != prm.get("rules") or tr[0].get("semantics") != prm.get("semantics"):
        raise Mismatch("params and the trace's header name different rules")
    if rules.get("elimination", "on" if prm["assignment"] == "paper" else "off") != \
            ("on" if prm["assignment"] == "paper" else "off"):
        raise Mismatch("rules and assignment disagree on elimination")
    draws = {"phase1": iter([r for e in tr if e["event"] == "sample" for r in e["rows"]]),
             "B": iter([r for e in tr if e["event"] == "step" for r in e["sample"]]),
             "anchor": iter([e["row"] for e in tr if e["event"] == "anchor"])}
    answers = iter([e for e in tr if e["event"] == "query"])

    def choose(pool, what):  # the trace's random choices; an anchor must be a row of its pool
        row = next(draws[what], None)
        if row is None or row not in pool:
            raise Mismatch(f"{what} draw {row} is not in its pool {sorted(set(pool))}")
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
                       prm["assignment"] == "paper" and clusters == prm["k"], choose, oracle, rules)
    # Every event after the header, field by field.
    for line, (a, b) in enumerate(zip(got, tr[1:]), start=2):
        if not same(a, b):
            raise Mismatch(f"line {line}: expected {json.dumps(b)}, computed {json.dumps(a)}")
    if len(got) != len(tr) - 1 or labels != tr[-1]["labels"]:
        raise Mismatch("labels or number of events")


def main(directory, profiles):
    manifest = json.load(open(os.path.join(directory, "manifest.json")))
    passed = failed = 0
    skipped = {}  # reason: count
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
                    run_test(g, t, vectors["search"], profiles)
                    passed += 1
                except Skipped as e:
                    skipped[str(e)] = skipped.get(str(e), 0) + 1
                except (Mismatch, StopIteration) as e:
                    failed += 1
                    print(f"{f['file']} tcId {t['tcId']} ({t['comment']}): {e}")
    for reason, count in sorted(skipped.items()):
        print(f"skipped {count}: {reason}")
    print(f"{passed} passed, {failed} failed, {sum(skipped.values())} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    # --profiles NAME,NAME: the profiles to run (default all this file implements); the vectors of
    # any other are skipped and counted.
    args = sys.argv[1:]
    profiles = {"paper", "authors-code", "custom"}
    if len(args) >= 2 and args[0] == "--profiles":
        profiles = set(args[1].split(","))
        args = args[2:]
    sys.exit(main(args[0] if args else "conformance", profiles))
