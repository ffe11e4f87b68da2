#!/usr/bin/env python3
"""The ablation's committed numbers (docs/reproduction/ablation.txt) and docs/reproduction.md's
tables printed from them.

    python3 scripts/ablation_tables.py line SUMMARY PRESET NAME
        one line of ablation.txt from a run's summary.json (scripts/ablation.sh calls this)
    python3 scripts/ablation_tables.py tables FILE PRESET
        the #Failure and Accuracy (%) tables of PRESET's runs, in the file's order
    python3 scripts/ablation_tables.py profiles FILE
        the table of every preset under the `paper` and `authors-code` profiles
    python3 scripts/ablation_tables.py check FILE REPRODUCTION.md [README.md...]
        exit 1, naming the lines, unless every row those tables print (and the `paper` and
        `authors-code` rows of the reproduction check) is in REPRODUCTION.md, and every row of
        `profiles` also in each README (ctest ablation_tables)

A line of FILE is `preset | run | pooled #Failure | q=Q: F F F F F / ... | q=Q: A A A A A / ...`:
the #Failure of every (q, eta) cell and the accuracy (%) of every cell, each q's five eta columns
in the summary's order. Lines starting with # are comments. Standard library only; not a CI step.
"""
import json
import sys


def line(summary, preset, name):
    cells = json.load(open(summary))["cells"]
    by_q = {}
    for c in cells:
        by_q.setdefault(c["q"], []).append(c)
    pooled = sum(c["failures"] for c in cells)
    fail = " / ".join("q=%g: %s" % (q, " ".join(str(c["failures"]) for c in v))
                      for q, v in sorted(by_q.items()))
    acc = " / ".join("q=%g: %s" % (q, " ".join("%.3f" % c["accuracy_pct"] for c in v))
                     for q, v in sorted(by_q.items()))
    print(f"{preset} | {name} | {pooled} | {fail} | {acc}")


def per_q(field, where):
    """'q=0.7: 1 2 / q=1: 3 4' -> [('0.7', ['1', '2']), ('1', ['3', '4'])]"""
    out = []
    for part in field.split(" / "):
        q, values = part.split(": ")
        if not q.startswith("q="):
            sys.exit(f"ablation_tables: {where}: '{part}' is not q=Q: VALUES")
        out.append((q[2:], values.split()))
    return out


def read(path):
    runs = []
    for number, text in enumerate(open(path), 1):
        if text.startswith("#") or not text.strip():
            continue
        where = f"{path}:{number}"
        fields = [f.strip() for f in text.rstrip("\n").split(" | ")]
        if len(fields) != 5:
            sys.exit(f"ablation_tables: {where}: {len(fields)} fields, expected 5")
        preset, name, pooled, fail, acc = fields
        fail, acc = per_q(fail, where), per_q(acc, where)
        if sum(int(v) for _, vs in fail for v in vs) != int(pooled):
            sys.exit(f"ablation_tables: {where}: the cells do not add up to the pooled {pooled}")
        runs.append({"preset": preset, "name": name, "pooled": int(pooled), "fail": fail,
                     "acc": acc})
    return runs


def tables(path, preset):
    print("\n".join(table_lines(path, preset)))


def table_lines(path, preset):
    runs = [r for r in read(path) if r["preset"] == preset]
    if not runs:
        sys.exit(f"ablation_tables: {path} has no run of {preset}")
    fail = ["| run | pooled | q = 0.7 (η = 2 5 10 20 50) | q = 0.85 | q = 1 |",
            "|---|---:|---|---|---|"]
    acc = ["| run | q = 0.7 (η = 2 5 10 20 50) | q = 0.85 | q = 1 |", "|---|---|---|---|"]
    for r in runs:
        fail.append(f"| `{r['name']}` | {r['pooled']} | " +
                    " | ".join(" ".join(v) for _, v in r["fail"]) + " |")
        acc.append(f"| `{r['name']}` | " + " | ".join(" ".join(v) for _, v in r["acc"]) + " |")
    return fail + [""] + acc


def profiles(path):
    print("\n".join(profile_lines(path)))


def profile_lines(path):
    rows = ["| preset | profile | pooled #Failure | #Failure, q = 0.7 / 0.85 / 1 (η = 2 5 10 20 50) "
            "| Accuracy (%), q = 0.7 / 0.85 / 1 |", "|---|---|---:|---|---|"]
    for r in read(path):
        if r["name"] not in ("paper", "authors-code"):
            continue
        rows.append(f"| `{r['preset']}` | `{r['name']}` | {r['pooled']} | " +
                    " / ".join(" ".join(v) for _, v in r["fail"]) + " | " +
                    " / ".join(" ".join(v) for _, v in r["acc"]) + " |")
    return rows


def check_lines(path, preset):
    """The `paper` and `authors-code` rows of docs/reproduction.md's check table."""
    rows = []
    for r in read(path):
        if r["preset"] != preset or r["name"] not in ("paper", "authors-code"):
            continue
        for (_, fail), (_, acc) in zip(r["fail"], r["acc"]):
            rows.append(f"| | `{r['name']}` | {' '.join(fail)} | {' '.join(acc)} |")
    return rows


def check(path, doc, readmes):
    want = {doc: [line for p in ("paper-main", "paper-nonsep") for line in table_lines(path, p)] +
           profile_lines(path) + check_lines(path, "paper-main")}
    for readme in readmes:
        want[readme] = profile_lines(path)
    missing = 0
    for where, lines in want.items():
        have = set(open(where, encoding="utf-8").read().split("\n"))
        for line in lines:
            if line and line not in have:
                print(f"{where}: no line '{line}'")
                missing += 1
    print(f"ablation_tables: {missing} table lines of {path} missing" if missing else
          f"ablation_tables: every table line of {path} is in " + ", ".join(want))
    return 1 if missing else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["line"] and len(args) == 4:
        line(*args[1:])
    elif args[:1] == ["tables"] and len(args) == 3:
        tables(*args[1:])
    elif args[:1] == ["profiles"] and len(args) == 2:
        profiles(args[1])
    elif args[:1] == ["check"] and len(args) >= 3:
        sys.exit(check(args[1], args[2], args[3:]))
    else:
        sys.exit(__doc__)
