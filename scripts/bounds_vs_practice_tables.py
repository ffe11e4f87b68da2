#!/usr/bin/env python3
"""The tables of docs/bounds-vs-practice.md and of docs/calibrate.md's summary, made from
the outputs of `ssac calibrate` and `ssac harden` in docs/bounds-vs-practice/ (written by
scripts/bounds-vs-practice-all.sh). Standard library only.

    python3 scripts/bounds_vs_practice_tables.py rows CALIBRATE.txt...
        one table with a row per calibrate output (what scripts/bounds-vs-practice.sh prints)
    python3 scripts/bounds_vs_practice_tables.py assemble [--check] DIR DOC SUMMARY
        replace every generated block of DOC and SUMMARY -- the lines between
        `<!-- generated: NAME ... -->` and `<!-- end generated: NAME -->` -- by table NAME made
        from DIR; with --check write nothing, print a diff and exit 1 when a block differs.

Exit status 1 with one line on stderr for a missing or malformed output file or a missing
marker; nothing is written then.

About 470 lines in one file: every table reads the same parsed outputs, and the check compares the
blocks this same code writes, so the reader and the writers stay together.
"""
import difflib
import os
import re
import sys
from fractions import Fraction

WINDOWS = ["1:1.05", "1:1.1", "1.05:1.1", "1.1:1.3", "1.3:2"]
QS = ["0.7", "0.85", "1"]


class Bad(Exception):
    pass


# ---------------------------------------------------------------- reading the outputs

GRID_ROW = re.compile(r"^ +([0-9.]+) +(\d+) +(\d+) +(\d+) +([0-9.]+)  (yes|no)$")


def read_calibrate(path):
    """The numbers of one `ssac calibrate --what eta` output."""
    if not os.path.exists(path):
        raise Bad(f"{path}: missing")
    c = {"path": path, "grid": [], "passes_then_fails": [], "rises": [], "recheck": None,
         "empirical": None, "outcome": None}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"calibrate eta on (\S+) window (\S+) < gamma <= (\S+) ", line)
        if m:
            c["label"] = f"({m.group(2)}, {m.group(3)}]"
            c["window"] = (m.group(2), m.group(3))
        m = re.match(r"calibrate eta on (\S+) \(n = \d+, m = \d+, k = \d+, gamma = (\S+)\)$",
                     line)
        if m:
            stem = os.path.splitext(os.path.basename(m.group(1)))[0]
            c["label"] = f"{stem}, gamma = {m.group(2)}"
            c["data_gamma"] = m.group(2)
        m = re.match(r"random-weak oracle q = ([0-9.]+), .*failure event: (.*)$", line)
        if m:
            c["q"] = m.group(1)
            c["event"] = "recovery" if "not recovered exactly" in m.group(2) else "fewer-clusters"
        m = GRID_ROW.match(line)
        if m:
            c["grid"].append({"value": m.group(1), "event": int(m.group(2)),
                              "pass": m.group(6) == "yes"})
        m = re.match(r"non-monotone: eta = (\S+) passes but a larger value fails$", line)
        if m:
            c["passes_then_fails"].append(m.group(1))
        m = re.match(r"non-monotone: the rate rises from eta = (\S+) to (\S+) "
                     r"\(exact conditional test, p = (\S+) < alpha\)$", line)
        if m:
            c["rises"].append(m.groups())
        m = re.match(r"empirical eta = (\S+) \((re-check \d+): (\d+) of (\d+), Clopper-Pearson "
                     r"upper bound ([0-9.]+);", line)
        if m:
            c["outcome"] = "confirmed"
            c["empirical"] = m.group(1)
            c["recheck"] = {"which": m.group(2), "failures": m.group(3), "reps": m.group(4),
                            "upper": m.group(5)}
        if line.startswith("empirical eta: none confirmed"):
            c["outcome"] = "none confirmed"
        if line.startswith("no value of the grid passes"):
            c["outcome"] = "none on the grid"
        m = re.match(r"theory \(.*gamma = (\S+)\):$", line)
        if m:
            c["theory_gamma"] = m.group(1)
        m = re.match(r"  eta_random \(Theorem 1\) +(\d+)(?: +theory / empirical = (\S+))?$", line)
        if m:
            c["eta_random"], c["ratio"] = int(m.group(1)), m.group(2) or "-"
        m = re.match(r"  eta_random, Pinelis +(\d+)", line)
        if m:
            c["pinelis"] = m.group(1)
        m = re.match(r"  eta_perfect \(remark after Thm 1\) +(\d+)", line)
        if m:
            c["perfect"] = m.group(1)
    for key in ("label", "q", "event", "eta_random", "pinelis", "perfect", "outcome"):
        if key not in c or c[key] is None:
            raise Bad(f"{path}: not a complete output of ssac calibrate (no {key})")
    if not c["grid"]:
        raise Bad(f"{path}: no grid rows")
    return c


def read_harden(path):
    """The summary lines of one `ssac harden` output."""
    if not os.path.exists(path):
        raise Bad(f"{path}: missing")
    h = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"harden: window \((\S+), (\S+)\], .* eta = (\S+), ", line)
        if m:
            h["window"], h["eta"] = (m.group(1), m.group(2)), m.group(3)
        m = re.match(r"event: (fewer than k clusters|not recovered exactly)", line)
        if m:
            h["event"] = "fewer-clusters" if m.group(1).startswith("fewer") else "recovery"
        m = re.match(r"hardest found: restart (\d+), gamma = (\S+), sizes ([\d ]+); failure rate "
                     r"at eta = \S+: \S+ \((\d+) of (\d+);", line)
        if m:
            h.update(restart=m.group(1), gamma=m.group(2), sizes=m.group(3).split(),
                     failures=int(m.group(4)), reps=int(m.group(5)))
        m = re.match(r"budget: (\d+) evaluations, (\d+) runs of the algorithm; ([0-9.]+) s wall, "
                     r"([0-9.]+) s CPU", line)
        if m:
            h.update(evals=m.group(1), runs=int(m.group(2)), wall=m.group(3), cpu=m.group(4))
    for key in ("window", "event", "restart", "evals"):
        if key not in h:
            raise Bad(f"{path}: not a complete output of ssac harden (no {key})")
    return h


# ---------------------------------------------------------------- numbers as the tables print them

def round_half_up(x, decimals):
    """x (a Fraction) rounded half up to `decimals` decimals, as a string."""
    scaled = x * 10 ** decimals
    n = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    if decimals == 0:
        return str(n)
    sign, n = ("-" if n < 0 else ""), abs(n)
    return f"{sign}{n // 10 ** decimals}.{n % 10 ** decimals:0{decimals}d}"


def significant(x, digits):
    """x > 0 (a Fraction) to `digits` significant digits, trailing zeros dropped."""
    exponent = 0
    while x >= Fraction(10) ** (exponent + 1):
        exponent += 1
    while x < Fraction(10) ** exponent:
        exponent -= 1
    text = round_half_up(x, max(0, digits - 1 - exponent))
    return text.rstrip("0").rstrip(".") if "." in text else text


def ratio(x):
    """theory / empirical: whole numbers with thousands separators from 100 on, else three
    significant digits."""
    return f"{int(round_half_up(x, 0)):,}" if x >= 100 else significant(x, 3)


def count(n):
    """A count: thousands separators from 10,000 on."""
    return f"{n:,}" if n >= 10000 else str(n)


def gamma_text(g, min_decimals):
    """gamma with at least `min_decimals` decimals and three significant digits of gamma - 1."""
    g = Fraction(g)
    decimals = min_decimals
    while g - 1 > 0 and (g - 1) * 10 ** decimals < 100:
        decimals += 1
    return round_half_up(g, decimals)


def window_label(w):
    lo, hi = w.split(":")
    return f"({lo}, {hi}]"


def empirical_cell(c):
    """'1.5 (13 of 624, CP 0.03292)'; 're-check 2: ' inside when the first re-check failed."""
    if c["outcome"] != "confirmed":
        return c["outcome"]
    r = c["recheck"]
    which = "" if r["which"] == "re-check 1" else r["which"] + ": "
    return f"{c['empirical']} ({which}{r['failures']} of {r['reps']}, CP {r['upper']})"


def non_monotone(c):
    """What calibrate flagged: 'V passes, W does not' (the failing values above the lowest such
    V) and 'rises from A to B (p = P)'; 'none' without a flag."""
    def listed(values):
        return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]

    parts = []
    if c["passes_then_fails"]:
        low = Fraction(c["passes_then_fails"][0])
        above = [g["value"] for g in c["grid"] if not g["pass"] and Fraction(g["value"]) > low]
        vs = c["passes_then_fails"]
        parts.append(listed(vs) + (" passes, " if len(vs) == 1 else " pass, ") + listed(above) +
                     (" does not" if len(above) == 1 else " do not"))
    for a, b, p in c["rises"]:
        parts.append(f"rises from {a} to {b} (p = {p})")
    return "; ".join(parts) or "none"


# ---------------------------------------------------------------- the tables

def script_table(cals, theory_at="gamma_max", grid_column=False, low=None):
    """The table of scripts/bounds-vs-practice.sh: a row per calibrate output; with grid_column,
    the largest eta of each output's grid after q; with low (a function of an output giving
    Theorem 1's eta at the window's lower end gamma_min), that eta and its ratio after the ratio
    at gamma_max."""
    grid = ("grid up to | ", "---|") if grid_column else ("", "")
    lows = ("eta_random at gamma_min | ratio at gamma_min | ", "---|---|") if low else ("", "")
    out = [f"| gamma window | q | {grid[0]}empirical eta | re-check (failures of reps, CP bound) | "
           f"eta_random (Thm 1, at {theory_at}) | ratio | {lows[0]}eta_random Pinelis | "
           f"eta_perfect | non-monotone |", f"|---|---|{grid[1]}---|---|---|---|{lows[1]}---|---|---|"]
    for c in cals:
        r = c["recheck"]
        re_check = f"{r['which']}: {r['failures']} of {r['reps']}, CP {r['upper']}" if r else "-"
        emp = c["empirical"] if c["outcome"] == "confirmed" else c["outcome"]
        top = f"{count(int(Fraction(c['grid'][-1]['value'])))} | " if grid_column else ""
        at_low = ""
        if low:
            th = low(c)
            at_low = (f"{th} | {theory_ratio(th, c)} | " if th is not None
                      else "∞ (γ → 1) | ∞ | ")
        out.append(f"| {c['label']} | {c['q']} | {top}{emp} | {re_check} | {c['eta_random']} | "
                   f"{c['ratio']} | {at_low}{c['pinelis']} | {c['perfect']} | {non_monotone(c)} |")
    return out


class Outputs:
    """The files of DIR, read once each."""

    def __init__(self, d):
        self.dir, self.cache = d, {}

    def cal(self, name):
        path = os.path.join(self.dir, name)
        if path not in self.cache:
            self.cache[path] = read_calibrate(path)
        return self.cache[path]

    def window(self, w, q, event):
        lo, hi = w.split(":")
        return self.cal(f"calibrate-{lo}-{hi}-q{q}-{event}.txt")

    def hardest(self, w, search, q, event):
        lo, hi = w.split(":")
        return self.cal(f"calibrate-hardest-{lo}-{hi}-{search}-q{q}-{event}.txt")

    def harden(self, w, event):
        lo, hi = w.split(":")
        path = os.path.join(self.dir, f"harden-{lo}-{hi}-{event}.txt")
        if path not in self.cache:
            self.cache[path] = read_harden(path)
        return self.cache[path]


def emp_value(c):
    return Fraction(c["empirical"]) if c["outcome"] == "confirmed" else None


def theory_ratio(theory, c):
    e = emp_value(c)
    return ratio(Fraction(theory) / e) if e else "-"


def generator_failure(o, w, q):
    """The generator's #Failure output of window w: (1, 1.1] has its own, on the longer grid."""
    return o.window(w, q, "fewer-clusters")


def theory_at_low(o, event):
    """Theorem 1's eta at a window's lower end gamma_min, read from the output of the window whose
    upper end is gamma_min (same q; Theorem 1's eta depends on k, m, delta, gamma and q only, and
    every window output has the same k, m and delta); None at gamma_min = 1, where it is
    infinite."""
    def at(c):
        lo = c["window"][0]
        if Fraction(lo) == 1:
            return None
        for w in WINDOWS:
            if Fraction(w.split(":")[1]) == Fraction(lo):
                other = o.window(w, c["q"], event)
                if other.get("theory_gamma") is None or Fraction(other["theory_gamma"]) != Fraction(lo):
                    raise Bad(f"{other['path']}: theory not at gamma = {lo}")
                return other["eta_random"]
        raise Bad(f"no window output ends at gamma = {lo}, so no theory at ({lo}, ...]'s lower end")
    return at


def t_failure_generator(o):
    return script_table([o.window(w, q, "fewer-clusters")
                         for w in ["1:1.05", "1.05:1.1", "1.1:1.3", "1.3:2"] for q in QS],
                        low=theory_at_low(o, "fewer-clusters"))


def t_recovery_generator(o):
    return script_table([o.window(w, q, "recovery") for w in WINDOWS for q in QS],
                        grid_column=True, low=theory_at_low(o, "recovery"))


def t_recovery_hardest(o):
    return script_table([o.hardest("1:1.1", "recovery", q, "recovery") for q in QS],
                        theory_at="the dataset's gamma")


def harden_row(h):
    rate = round_half_up(Fraction(h["failures"], h["reps"]), 3)
    return {"gamma": gamma_text(h["gamma"], 5), "sizes": " / ".join(h["sizes"]),
            "rate": f"{rate} ({h['failures']} of {h['reps']})", "evals": h["evals"],
            "runs": count(h["runs"]), "wall": f"{round_half_up(Fraction(h['wall']), 0)} s",
            "cpu": f"{significant(Fraction(h['cpu']), 3)} s"}


def t_harden_1_1_1(o):
    rows = []
    for name, event in (("#Failure", "fewer-clusters"), ("recovery", "recovery")):
        h = o.harden("1:1.1", event)
        r = harden_row(h)
        rows.append((f"| {name} | {event}, η = {h['eta']} | {r['evals']} | {r['runs']} | "
                     f"{r['wall']} | {r['cpu']} | {r['gamma']}, {r['sizes']} | {r['rate']} |",
                     h["reps"]))
    reps = {n for _, n in rows}
    final = f"{reps.pop()} reps" if len(reps) == 1 else "final re-evaluation"
    return ["| search | event, η searched at | evaluations | runs of the algorithm | wall | CPU | "
            f"hardest: γ, sizes | its rate at that η ({final}) |",
            "|---|---|---|---|---|---|---|---|"] + [r for r, _ in rows]


def t_harden_windows(o):
    out = ["| window | restart | γ | sizes | rate at η = 2 (final) | evaluations | runs | wall | "
           "CPU |", "|---|---|---|---|---|---|---|---|---|"]
    for w in WINDOWS:
        h = o.harden(w, "fewer-clusters")
        r = harden_row(h)
        out.append(f"| {window_label(w)} | {h['restart']} | {r['gamma']} | {r['sizes']} | "
                   f"{r['rate']} | {r['evals']} | {r['runs']} | {r['wall']} | {r['cpu']} |")
    return out


def t_failure_window(o, w):
    """One window's #Failure, generator beside the hardest found, with the theory also at the
    hardest's own gamma."""
    hardest = [o.hardest(w, "fewer-clusters", q, "fewer-clusters") for q in QS]
    hi = w.split(":")[1]
    out = ["| q | generator: empirical η (re-check) | hardest found: empirical η (re-check) | "
           f"η_random at γ = {hi} | ÷ generator | ÷ hardest | η_random at the hardest's γ = "
           f"{gamma_text(hardest[0]['data_gamma'], 4)} | ÷ hardest |",
           "|---|---|---|---|---|---|---|---|"]
    for q, h in zip(QS, hardest):
        g = generator_failure(o, w, q)
        th = g["eta_random"]
        out.append(f"| {q} | {empirical_cell(g)} | {empirical_cell(h)} | {th} | "
                   f"{theory_ratio(th, g)} | {theory_ratio(th, h)} | {h['eta_random']} | "
                   f"{theory_ratio(h['eta_random'], h)} |")
    return out


def t_failure_windows(o):
    out = ["| window | q | generator: empirical η (re-check) | hardest found: empirical η "
           "(re-check) | η_random at γ_max | ÷ generator | ÷ hardest |",
           "|---|---|---|---|---|---|---|"]
    for w in WINDOWS:
        for q in QS:
            g, h = generator_failure(o, w, q), o.hardest(w, "fewer-clusters", q, "fewer-clusters")
            th = g["eta_random"]
            out.append(f"| {window_label(w)} | {q} | {empirical_cell(g)} | {empirical_cell(h)} | "
                       f"{th} | {theory_ratio(th, g)} | {theory_ratio(th, h)} |")
    return out


def summary_cell(theory, c):
    """theory / empirical with the empirical eta; a lower bound where the empirical eta is the
    grid's floor, an upper bound where no grid value passed."""
    if c["outcome"] == "confirmed":
        e = Fraction(c["empirical"])
        floor = e == Fraction(c["grid"][0]["value"])
        return f"{'≥ ' if floor else ''}{ratio(Fraction(theory) / e)} (η = {c['empirical']})"
    if c["outcome"] == "none on the grid":
        top = c["grid"][-1]["value"]
        return f"< {ratio(Fraction(theory) / Fraction(top))} (η > {count(int(Fraction(top)))})"
    return "none confirmed"


def t_summary(o):
    out = ["| γ window | q | #Failure: generator | #Failure: hardest found | exact recovery: "
           "generator | exact recovery: hardest found |", "|---|---|---|---|---|---|"]
    for w in WINDOWS:
        for q in QS:
            th_f = generator_failure(o, w, q)["eta_random"]
            rec = o.window(w, q, "recovery")
            th_r = rec["eta_random"]
            cells = [summary_cell(th_f, generator_failure(o, w, q)),
                     summary_cell(th_f, o.hardest(w, "fewer-clusters", q, "fewer-clusters")),
                     summary_cell(th_r, rec)]
            lo, hi = w.split(":")
            if os.path.exists(os.path.join(
                    o.dir, f"calibrate-hardest-{lo}-{hi}-recovery-q{q}-recovery.txt")):
                cells.append(summary_cell(th_r, o.hardest(w, "recovery", q, "recovery")))
            else:
                cells.append("not searched")
            out.append(f"| {window_label(w)} | {q} | " + " | ".join(cells) + " |")
    return out


TABLES = {
    "failure-generator": t_failure_generator,
    "recovery-generator": t_recovery_generator,
    "harden-1-1.1": t_harden_1_1_1,
    "failure-1-1.1": lambda o: t_failure_window(o, "1:1.1"),
    "failure-1.1-1.3": lambda o: t_failure_window(o, "1.1:1.3"),
    "harden-windows": t_harden_windows,
    "failure-windows": t_failure_windows,
    "recovery-hardest-1-1.1": t_recovery_hardest,
    "summary": t_summary,
}

BEGIN = re.compile(r"^<!-- generated: (\S+) .*-->$")


def fill(path, outputs):
    """The text of `path` with every generated block made afresh."""
    if not os.path.exists(path):
        raise Bad(f"{path}: missing")
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, names = [], 0, []
    while i < len(lines):
        out.append(lines[i])
        m = BEGIN.match(lines[i])
        i += 1
        if not m:
            continue
        name = m.group(1)
        if name not in TABLES:
            raise Bad(f"{path}:{i}: no table is called '{name}'")
        end = f"<!-- end generated: {name} -->"
        try:
            j = lines.index(end, i)
        except ValueError:
            raise Bad(f"{path}:{i}: '{name}' has no line '{end}'") from None
        try:
            table = TABLES[name](outputs)
        except Bad as e:
            raise Bad(f"{e} (table '{name}' of {path})") from None
        out += [""] + table + ["", end]
        names.append(name)
        i = j + 1
    if not names:
        raise Bad(f"{path}: no generated block (<!-- generated: NAME ... -->)")
    return "\n".join(out)


def assemble(d, paths, check):
    outputs = Outputs(d)
    new = {p: fill(p, outputs) for p in paths}  # every file made before any is written
    differs = False
    for p in paths:
        old = open(p, encoding="utf-8").read()
        if old == new[p]:
            continue
        differs = True
        if check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new[p].splitlines(True), p, p + " (assembled)"))
        else:
            with open(p + ".tmp", "w", encoding="utf-8") as f:
                f.write(new[p])
            os.replace(p + ".tmp", p)
            print(f"bounds_vs_practice_tables: wrote {p}")
    if check:
        print("bounds_vs_practice_tables: " +
              ("the tables differ from the outputs" if differs else
               "every table matches the outputs of " + d))
    return 1 if (check and differs) else 0


def main(args):
    try:
        if args[:1] == ["rows"] and len(args) > 1:
            cals = [read_calibrate(p) for p in args[1:]]
            data = {"data_gamma" in c for c in cals}
            at = ("the dataset's gamma" if data == {True} else
                  "gamma_max" if data == {False} else "gamma_max or the dataset's gamma")
            print("\n".join(script_table(cals, theory_at=at)))
            return 0
        if args[:1] == ["assemble"]:
            check = "--check" in args
            rest = [a for a in args[1:] if a != "--check"]
            if len(rest) == 3:
                return assemble(rest[0], rest[1:], check)
    except Bad as e:
        print(f"bounds_vs_practice_tables: {e}", file=sys.stderr)
        return 1
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
