"""Distributional conformance catches what replaying a trace cannot (docs/conformance.md).

The independent Python implementation (examples/python/ssac_distribution.py) runs every instance
of the committed distribution corpus (conformance/distribution/) RUNS times with its own random
numbers, and `ssac gof` judges the outcomes against the instance's exact law:

* the clean implementation passes every instance for each of 20 seeds (80 tests at the default
  false-alarm rate 1e-6 each: a false alarm here has probability at most 8e-5, by the union bound,
  as far as the G-test's chi-square p-value is exact);
* each of the five injected bugs (drawing mistakes whose draws a trace records, so that a replay
  takes them as given) fails every instance built to catch it (the instance's "catches"), and so at
  least one instance;
* the law of the choices (`ssac choices`): the same implementation's runs written as traces pass
  on the three instances with random choices, and on random_weak_unified each drawing bug is
  caught by its choices' law (exit 4) or, for B without replacement, already by the replay
  (exit 1).

Run by ctest as `distribution_python` with SSAC_BIN (the program) and SSAC_SOURCE_DIR set.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

SRC = pathlib.Path(os.environ.get("SSAC_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[1]))
BIN = os.environ.get("SSAC_BIN", "ssac")
CORPUS = SRC / "conformance" / "distribution"
sys.path.insert(0, str(SRC / "examples" / "python"))
import ssac_distribution  # noqa: E402

RUNS = 3000
SEEDS = range(1, 21)
INSTANCES = sorted(p for p in CORPUS.glob("*.json") if p.name != "manifest.json")


def gof(instance, outcomes):
    """`ssac gof` on the outcomes: (exit status, its report)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(outcomes) + "\n")
    try:
        r = subprocess.run([BIN, "gof", "--expected", str(instance), "--observed", f.name],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    assert r.returncode in (0, 4), r.stderr
    return r.returncode, r.stdout


def test_the_corpus_has_an_instance_for_every_bug():
    catches = set()
    for path in INSTANCES:
        catches |= set(json.load(open(path))["catches"])
    assert catches == set(ssac_distribution.BUGS)
    assert len(INSTANCES) == 4


def test_the_corpus_matches_its_schemas():
    jsonschema = pytest.importorskip("jsonschema")  # Debian's python3-jsonschema
    law = json.load(open(SRC / "schemas" / "ssac-distribution-v1.schema.json"))
    manifest = json.load(open(SRC / "schemas" / "ssac-distribution-manifest-v1.schema.json"))
    jsonschema.Draft202012Validator(manifest).validate(json.load(open(CORPUS / "manifest.json")))
    for path in INSTANCES:
        jsonschema.Draft202012Validator(law).validate(json.load(open(path)))
    # The schema can fail: an outcome without its query counts is refused.
    bad = json.load(open(INSTANCES[0]))
    bad["outcomes"][0]["outcome"] = "1,1,2"
    assert not jsonschema.Draft202012Validator(law).is_valid(bad)


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_the_clean_implementation_conforms_for_20_seeds(path):
    inst, X, labels = ssac_distribution.read_instance(path)
    for seed in SEEDS:
        status, report = gof(path, ssac_distribution.runs(inst, X, labels, RUNS, seed))
        assert status == 0, f"seed {seed}:\n{report}"


@pytest.mark.parametrize("bug", ssac_distribution.BUGS)
def test_each_bug_fails_the_instances_built_for_it(bug):
    failed = []
    for path in INSTANCES:
        inst, X, labels = ssac_distribution.read_instance(path)
        status, report = gof(path, ssac_distribution.runs(inst, X, labels, RUNS, 1, bug))
        if bug in inst["catches"]:
            assert status == 4, f"{path.stem} did not catch {bug}:\n{report}"
        if status == 4:
            failed.append(path.stem)
    assert failed, f"no instance caught {bug}"


# The law of the choices (`ssac choices`, docs/conformance.md): the same implementation's traces,
# each run written as a trace, their draws and abstentions tested against their exact law. One
# seed per case at alpha = 1e-6: the clean cases' false alarm is at most 3e-6 together.
CHOICE_RUNS = 1000
UNIFIED = CORPUS / "random_weak_unified.json"


def choices(path, bug):
    """`ssac choices` on CHOICE_RUNS traces of the implementation: (exit status, its report)."""
    inst, X, labels = ssac_distribution.read_instance(path)
    with tempfile.TemporaryDirectory() as d:
        ssac_distribution.runs(inst, X, labels, CHOICE_RUNS, 1, bug, d)
        traces = sorted(str(p) for p in pathlib.Path(d).glob("*.jsonl"))
        r = subprocess.run([BIN, "choices", "--data", str(CORPUS / inst["data"])] + traces,
                           capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.parametrize("name", ["random_weak_unified", "random_search_beta_above_zp",
                                  "phase1_repeats"])
def test_the_clean_implementations_choices_conform(name):
    status, report = choices(CORPUS / f"{name}.json", None)
    assert status == 0, report


# Each drawing bug, on the instance with a random-weak oracle and Algorithm 4: three are caught by
# the law of their choices, the fourth already by the replay, since drawing B without replacement
# from a Z_p smaller than B records fewer draws than the algorithm makes: its traces are named and
# left out. Each exits 4, a failing implementation (1 is for files that cannot be read).
@pytest.mark.parametrize("bug,status,kind", [
    ("phase1-without-replacement", 4, "phase1_draw"),
    ("index-draw", 4, "phase1_draw"),
    ("abstention-rate", 4, "abstention"),
    ("B-without-replacement", 4, "not conform to the reference (left out above"),
])
def test_each_drawing_bug_is_caught_by_its_choices(bug, status, kind):
    got, report = choices(UNIFIED, bug)
    assert got == status, report
    assert kind in report, report


# Anchor draws (trace format version 4): the independent implementation replays the reference's
# traces under both random anchor rules, taking each recorded anchor (which must be a row of the
# pool it computes), and refuses one edited to a row outside it; and the reference replays the
# independent implementation's own version-4 traces.
@pytest.mark.parametrize("rule", ["random-labelled-row", "random-known-row"])
def test_version_4_traces_both_ways(rule, tmp_path):
    from ssac_conformance import Mismatch, parse_rules, replay, ssac, trace_header
    import random
    # Three clusters of three points (lib/testing's nine_points), k = 3.
    X = [[0, 0], [1, 0], [0, 1], [10, 0], [11, 0], [10, 1], [0, 10], [1, 10], [0, 11]]
    labels = [1, 1, 1, 2, 2, 2, 3, 3, 3]
    data = str(tmp_path / "nine.csv")
    (tmp_path / "nine.csv").write_text("x1,x2,label\n" + "".join(
        f"{a},{b},{c}\n" for (a, b), c in zip(X, labels)))
    drawn = 0
    for seed in range(1, 6):
        t = tmp_path / f"ref-{seed}.jsonl"
        subprocess.run([BIN, "cluster", data, "--k", "3", "--eta", "2", "--beta", "3", "--oracle",
                        "random", "--q", "0.7", "--rule", f"anchor={rule}", "--seed", str(seed),
                        "--trace", str(t)], check=True, capture_output=True)
        tr = [json.loads(line) for line in t.read_text().splitlines()]
        h = tr[0]
        assert h["version"] == 4
        prm = {"k": h["k"], "eta": h["eta"], "beta": h["beta"], "assignment": h["assignment"],
               "rules": h["rules"], "semantics": h["semantics"]}
        rules = parse_rules(h["rules"])
        replay(X, tr, h["search"], rules, prm)
        chosen = [e for e in tr if e["event"] == "anchor" and len(e["candidates"]) > 1]
        drawn += len(chosen)
        if chosen:
            bad = next(r for r in range(len(X)) if r not in chosen[0]["candidates"])
            chosen[0]["row"] = bad
            with pytest.raises(Mismatch, match=f"anchor draw {bad} is not in its pool"):
                replay(X, tr, h["search"], rules, prm)
        # The independent implementation's own run under the rule, replayed by the reference.
        rng = random.Random(seed)
        mine = parse_rules(f"anchor={rule}")
        ev, _ = ssac(X, 3, 2, 3, "unified", True, lambda pool, what: rng.choice(pool),
                     lambda x, y, phase, purpose: ("not-sure" if rng.random() >= 0.7 else
                                                   "yes" if labels[x] == labels[y] else "no"),
                     mine)
        head = trace_header(X, 3, 2, 3, "unified", True, seed, mine, {"kind": "random", "q": 0.7})
        assert head["version"] == 4 and any(e["event"] == "anchor" for e in ev)
        t = tmp_path / f"mine-{seed}.jsonl"
        t.write_text("".join(json.dumps(e) + "\n" for e in [head] + ev))
        r = subprocess.run([BIN, "validate", "--data", data, "--trace", str(t)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
    assert drawn > 0
