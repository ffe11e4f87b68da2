#!/usr/bin/env python3
"""Validates an independent SSAC implementation through the ssac Python module.

The implementation is ssac_conformance.ssac() (standard library only). Here it makes its own
random choices (Python's random.Random) and asks a simulated random-weak oracle (Definition 5):
each run's events, behind a header, form a trace (docs/trace-format.md) that ssac.validate replays
through the reference with the same draws and answers, under the paper's rules and under the
authors-code profile (the header names its rules), and under the two random anchor rules (trace
format version 4, whose anchor events hold the anchors it drew). Every run must conform; then one
decision of a conforming trace is flipped, and an anchor moved outside the rows it was drawn from,
and the replay must name each. Exit 0 when all hold.
Usage: validate_with_module.py [RUNS_PER_SEARCH]   (needs the module: docs/python.md)
"""
import random
import sys

import ssac
from ssac_conformance import parse_rules, ssac as my_ssac, trace_header

# The authors-code profile (proofs-notes/semantics.md S9), as a trace header spells it.
AUTHORS_CODE = parse_rules("anchor=lowest-labelled-row phase2=prefix overwrite=on sample-cap=on "
                           "self-pairs=on empty-recovers=on b-order=b-first")


def my_run(X, y, k, eta, beta, search, q, seed, rules=None):
    """One run of the independent implementation; returns its trace as a list of events."""
    rng = random.Random(seed)

    def choose(pool, what):
        return rng.choice(pool)

    def oracle(a, b, phase, purpose):
        if search != "plain" and rng.random() >= q:  # the plain search needs yes/no answers
            return "not-sure"
        return "yes" if y[a] == y[b] else "no"

    elimination = rules is not AUTHORS_CODE  # the authors' code has none (S2)
    events, _ = my_ssac(X, k, eta, beta, search, elimination, choose, oracle, rules)
    # The header names the oracle in fields (docs/trace-format.md): this one's random-weak answers,
    # or in the plain search, which needs yes/no answers, the truth itself.
    named = {"kind": "perfect"} if search == "plain" else {"kind": "random", "q": q}
    return [trace_header(X, k, eta, beta, search, elimination, seed, rules, named)] + events


def main(runs):
    d = ssac.generate(n=300, m=2, k=3, std=1.5, gamma_min=1.0, gamma_max=1.6, seed=11)
    X, y = d["points"].tolist(), d["labels"].tolist()
    bad = 0
    for search in ("random", "distance", "unified", "plain"):
        for seed in range(runs):
            trace = my_run(X, y, 3, 2, 3, search, 0.7, seed)
            result = ssac.validate(trace, d["points"])
            if not result:
                bad += 1
                print(f"{search} search, seed {seed}: {result.divergence}")
        print(f"{search} search: {runs} runs validated")
    # The same under the authors-code profile: the header names its rules and the reference
    # replays under them.
    for search in ("random", "distance", "unified"):
        for seed in range(runs):
            trace = my_run(X, y, 3, 2, 3, search, 0.7, seed, AUTHORS_CODE)
            result = ssac.validate(trace, d["points"])
            if not result:
                bad += 1
                print(f"{search} search, authors-code, seed {seed}: {result.divergence}")
        print(f"{search} search, authors-code: {runs} runs validated")
    # The random anchor rules: each anchor drawn is in the trace (version 4) and the reference
    # replays it, after checking it is a row the rule draws from.
    for rule in ("random-labelled-row", "random-known-row"):
        for seed in range(runs):
            trace = my_run(X, y, 3, 2, 3, "unified", 0.7, seed, parse_rules(f"anchor={rule}"))
            result = ssac.validate(trace, d["points"])
            if not result or result.version != 4:
                bad += 1
                print(f"unified search, anchor={rule}, seed {seed}: {result.divergence}")
        print(f"unified search, anchor={rule}: {runs} runs validated")
    trace = my_run(X, y, 3, 2, 3, "unified", 0.7, 0, parse_rules("anchor=random-known-row"))
    line = next(i for i, e in enumerate(trace) if e["event"] == "anchor")
    trace[line]["row"] = next(r for r in range(len(X)) if r not in trace[line]["candidates"])
    result = ssac.validate(trace, d["points"])
    print(f"illegal anchor: {result.divergence}")
    if result or result.divergence.event != line + 1 or "not one the rule draws from" not in \
            result.divergence.message:
        bad += 1
    # The validator is not a rubber stamp: a flipped decision is found and named.
    trace = my_run(X, y, 3, 2, 3, "unified", 0.7, 0)
    line = next(i for i, e in enumerate(trace) if e.get("decision") == "out")
    trace[line]["decision"] = "in"
    result = ssac.validate(trace, d["points"])
    print(f"flipped decision: {result.divergence}")
    if result or result.divergence.event != line + 1 or result.divergence.what != "decision":
        bad += 1
    print(f"{bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 25))
