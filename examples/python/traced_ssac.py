#!/usr/bin/env python3
"""An outside-style SSAC implementation recording its runs with ssac.TraceWriter.

The implementation below is written the way research code usually is: NumPy arrays, a
np.random.Generator for every random choice, one function per algorithm, and no notion of traces.
It follows the paper's rules (proofs-notes/semantics.md S1-S8) for Algorithm 1 with Algorithm 2
or 4 and a random-weak oracle (Definition 5). Recording it takes one writer call beside each
thing the run does: each such line is marked `# trace`. Then ssac.validate replays every run
through the reference.

`deviation` switches on one real departure from the paper, as a check that the replay sees it:
"distinct-mean" takes mu'_p as the mean of Z_p's distinct rows instead of the multiset (Algorithm
1, line 8), a slip that gives the same answer whenever Z_p has no repeated row; "near-ties" orders
distances within 1e-9 of each other as equal, a tolerance that moves rows the paper's order puts
apart. `ties="reversed"` orders points at exactly equal distance from mu'_p by decreasing row
instead of by row (S6), a choice the paper leaves free: the replay follows it and counts the ties
(ValidationResult.ties).
Usage: traced_ssac.py [RUNS]   (needs the module: docs/python.md)
"""
import math
import sys

import numpy as np

import ssac


def weak_ssac(X, y, k, eta, beta, q, seed, search="unified", deviation=None, writer=None,
              ties="row"):
    """Algorithm 1 (with Algorithm 2, search="random", or 4, search="unified") on the rows of X,
    asking a random-weak oracle backed by the labels y. Returns the labels (0 = unassigned)."""
    rng = np.random.default_rng(seed)
    n = len(X)
    r = math.ceil(k * eta)  # exact for the parameters used here (see docs/trace-format.md)
    labels = np.zeros(n, dtype=int)
    remaining = np.arange(n)
    known, opener, recovered = [], {}, []
    status, asked = [], [0, 0]

    def oracle(a, b, phase, purpose):  # Definition 5: not-sure w.p. 1 - q, fresh each time
        answer = "not-sure" if rng.random() >= q else ("yes" if y[a] == y[b] else "no")
        asked[phase - 1] += 1
        writer.query(int(a), int(b), answer, purpose)  # trace
        return answer

    def assign(x):  # Definition 4 with the elimination rule (S2); anchors are openers (S3)
        answers = [oracle(x, opener[t], 1, "assignment") for t in known]
        if "yes" in answers:
            return known[answers.index("yes")]
        if answers.count("no") == len(known) < k:
            t = min(set(range(1, k + 1)) - set(known))
            known.append(t)
            opener[t] = x
            return t
        if len(known) == k and answers.count("no") == k - 1:
            return known[answers.index("not-sure")]
        return 0

    for i in range(1, k + 1):
        writer.iteration(len(remaining))  # trace
        if len(remaining) == 0:
            writer.outcome("empty_remainder")  # trace
            status.append(f"iteration {i}: empty_remainder")
            break
        Z = remaining[rng.integers(0, len(remaining), size=r)]  # with replacement (S1)
        writer.sample(Z.tolist())  # trace
        t = [assign(int(x)) for x in Z]
        writer.assignment(t)  # trace
        counts = [t.count(c) for c in known]
        if not any(counts):
            writer.outcome("phase1_all_not_sure")  # trace
            status.append(f"iteration {i}: phase1_all_not_sure")
            continue
        p = known[int(np.argmax(counts))]  # ties: the earliest-discovered cluster (S7)
        Zp = Z[np.array(t) == p]
        mu = (X[np.unique(Zp)] if deviation == "distinct-mean" else X[Zp]).mean(axis=0)
        d = np.sqrt(((X[remaining] - mu) ** 2).sum(axis=1))
        # By distance, equal ones by row (S6), or by decreasing row.
        key = np.round(d, 9) if deviation == "near-ties" else d
        order = remaining[np.lexsort((remaining if ties == "row" else -remaining, key))]
        x1 = int(order[0])
        writer.cluster(p, len(Zp), mu.tolist(), x1, revisited=p in recovered)  # trace
        lo, hi, failed = 0, len(order) - 1, False
        while lo <= hi:
            j = (lo + hi) // 2
            xj = int(order[j])
            a = oracle(x1, xj, 2, "search_x1") if search == "unified" else None
            B, votes = [], []
            if a in (None, "not-sure"):
                for b in Zp[rng.integers(0, len(Zp), size=beta - (search == "unified"))]:
                    B.append(int(b))
                    # The pair's order as the reference asks it (docs/trace-format.md, S5):
                    # Q(b, x_j) in Algorithm 2, Q(x_j, b) in Algorithm 4.
                    pair = (int(b), xj) if search == "random" else (xj, int(b))
                    votes.append(oracle(*pair, 2, "search_sample"))
                decision = "in" if "yes" in votes else "out" if "no" in votes else "fail"
                if decision == "fail" and search == "unified":
                    decision = "out"  # Algorithm 4 never fails
            else:
                decision = "in" if a == "yes" else "out"
            writer.step(lo, hi, j, xj, decision, x1_answer=a, sample=B,  # trace
                        sample_answers=votes)  # trace
            if decision == "fail":
                failed = True
                break
            lo, hi = (j + 1, hi) if decision == "in" else (lo, j - 1)
        if failed:
            writer.outcome("search_failed")  # trace
            status.append(f"iteration {i}: search_failed")
            continue
        # r'_i = d(x_{j*}, mu'_p), and C'_p the points strictly inside it (Algorithm 1, line 13).
        radius = float(d[np.searchsorted(remaining, order[lo])]) if lo < len(order) else math.inf
        members = remaining[d < radius]
        labels[members] = p
        remaining = np.setdiff1d(remaining, members)
        if len(members) and p not in recovered:
            recovered.append(p)
        if not len(members):
            status.append(f"iteration {i}: empty_cluster")
        writer.outcome("recovered" if len(members) else "empty_cluster", j_star=lo,  # trace
                       radius=radius, assigned=members.tolist())  # trace
    if len(recovered) < k:
        status.append(f"fewer than k clusters recovered ({len(recovered)} of {k})")
    writer.final(labels.tolist(), "; ".join(status) or "ok", len(recovered),  # trace
                 len(recovered) < k)  # trace
    return labels


def traced_run(X, y, k, eta, beta, q, seed, search="unified", deviation=None, ties="row"):
    """One run and its trace's text."""
    w = ssac.TraceWriter(X, k=k, eta=eta, beta=beta, search=search,
                         oracle={"kind": "random", "q": q}, seed=seed)
    weak_ssac(X, y, k, eta, beta, q, seed, search, deviation, w, ties)
    return w.text()


def main(runs):
    d = ssac.generate(n=200, m=2, k=3, std=1.5, gamma_min=1.0, gamma_max=1.6, seed=5)
    X, y = d["points"], d["labels"]
    bad = 0
    for search in ("unified", "random"):
        for seed in range(runs):
            result = ssac.validate(traced_run(X, y, 3, 4, 3, 0.7, seed, search), X)
            if not result:
                bad += 1
                print(f"{search}, seed {seed}: {result.divergence}")
        print(f"{search} search: {runs} traced runs validated")
    # The deviation: caught on the first run whose Z_p repeats a row, at the cluster event.
    caught = [ssac.validate(traced_run(X, y, 3, 4, 3, 0.7, s, deviation="distinct-mean"), X)
              for s in range(runs)]
    misses = [c for c in caught if not c]
    print(f"distinct-mean deviation: {len(misses)} of {runs} runs do not conform"
          + (f"; first: {misses[0].divergence}" if misses else ""))
    return 0 if bad == 0 and misses else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
