#!/usr/bin/env python3
"""How many runs each injected drawing bug needs to be caught (docs/conformance.md, "The proof
that it catches what a replay cannot"): for every instance of conformance/distribution/ and every
bug in its "catches", the bug is run with seeds 1..10 at N = 100, 200, 500, 1000 runs
(examples/python/ssac_distribution.py) and `ssac gof` judges each; printed: how many of the 10
were caught (exit 4). A too-small N that `ssac gof` refuses (fewer than two cells expected 5 times,
exit 1) counts as not caught.

Usage (from the source tree): scripts/distribution_power.py [PATH/TO/ssac]
"""
import subprocess, sys, tempfile, os, pathlib
sys.path.insert(0, "examples/python")
import ssac_distribution as sd
SSAC = sys.argv[1] if len(sys.argv) > 1 else "build/cli/ssac"
insts = sorted(p for p in pathlib.Path("conformance/distribution").glob("*.json") if p.name != "manifest.json")
def fails(path, outs):
    with tempfile.NamedTemporaryFile("w", delete=False) as f:
        f.write("\n".join(outs) + "\n")
    r = subprocess.run([SSAC, "gof", "--expected", str(path), "--observed", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    return r.returncode == 4
for p in insts:
    inst, X, labels = sd.read_instance(p)
    for b in inst["catches"]:
        res = []
        for N in (100, 200, 500, 1000):
            caught = sum(fails(p, sd.runs(inst, X, labels, N, s, b)) for s in range(1, 11))
            res.append(f"N={N}: {caught}/10")
        print(p.stem, b, " ".join(res))
