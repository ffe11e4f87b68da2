#!/usr/bin/env python3
"""Markdown tables of docs/reproduction.md from the summaries that scripts/ablation.sh writes.

    python3 scripts/ablation_tables.py RUNS PRESET NAME...

RUNS/PRESET/NAME/summary.json for each NAME (a run of the ablation); runs that are missing are
named in a line after the tables. Prints two tables: #Failure (pooled over the 15 cells, then per q the five eta
columns) and Accuracy (%), one row per run. Standard library only; not a CI step.
"""
import json
import os
import sys


def main(root, preset, names):
    fail = ["| run | pooled | q = 0.7 (η = 2 5 10 20 50) | q = 0.85 | q = 1 |",
            "|---|---:|---|---|---|"]
    acc = ["| run | q = 0.7 (η = 2 5 10 20 50) | q = 0.85 | q = 1 |", "|---|---|---|---|"]
    missing = []
    for name in names:
        path = os.path.join(root, preset, name, "summary.json")
        if not os.path.exists(path):
            missing.append(f"`{name}`")
            continue
        cells = json.load(open(path))["cells"]
        by_q = {}
        for c in cells:
            by_q.setdefault(c["q"], []).append(c)
        qs = sorted(by_q)
        pooled = sum(c["failures"] for c in cells)
        fail.append(f"| `{name}` | {pooled} | " +
                    " | ".join(" ".join(str(c["failures"]) for c in by_q[q]) for q in qs) + " |")
        acc.append(f"| `{name}` | " + " | ".join(
            " ".join("%.3f" % c["accuracy_pct"] for c in by_q[q]) for q in qs) + " |")
    print("\n".join(fail) + "\n\n" + "\n".join(acc))
    if missing:
        print("\nNot finished when these tables were made: " + ", ".join(missing) + ".")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
