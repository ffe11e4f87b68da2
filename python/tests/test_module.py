"""The Python module against the command line: the same inputs give the same points, labels,
traces, divergences, bounds and error messages."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import ssac


def read_labels(path):
    with open(path) as f:
        assert f.readline().strip() == "label"
        return np.array([int(line) for line in f], dtype=np.int64)


# ---- generate, read_csv, gamma ----------------------------------------------------------------
def test_generate_equals_cli(cli, tmp_path):
    out = tmp_path / "g.csv"
    p = cli("generate", "--n", 90, "--m", 3, "--k", 4, "--std", 1.0, "--gamma-min", 1.0,
            "--gamma-max", 30, "--seed", 5, "--shuffle", "--out", out)
    d = ssac.generate(n=90, m=3, k=4, std=1.0, gamma_min=1.0, gamma_max=30, seed=5, shuffle=True)
    X, y = ssac.read_csv(out)
    assert np.array_equal(d["points"], X)  # bit for bit: the CSV holds shortest round-trip texts
    assert np.array_equal(d["labels"], y)
    assert f"accepted draw {d['draws']})" in p.stdout
    assert float(p.stdout.split("gamma = ")[1].split()[0]) == d["gamma"]


def test_generate_ziggurat_equals_cli(cli, tmp_path):
    out = tmp_path / "z.csv"
    cli("generate", "--n", 60, "--seed", 8, "--gaussians", "ziggurat", "--out", out)
    d = ssac.generate(n=60, seed=8, gaussians="ziggurat")
    X, y = ssac.read_csv(out)
    assert np.array_equal(d["points"], X)
    assert not np.array_equal(ssac.generate(n=60, seed=8)["points"], X)  # another stream
    with pytest.raises(ValueError):
        ssac.generate(n=60, gaussians="box-muller")


def test_gamma_equals_cli(cli, data_csv):
    X, y = ssac.read_csv(data_csv)
    g = ssac.gamma(X, y)
    first = cli("gamma", data_csv).stdout.splitlines()[0]
    assert float(first.split(" = ")[1]) == g["gamma"]
    assert g["sizes"].tolist() == [80, 80, 80]
    assert g["means"].shape == (3, 2)
    ratio = np.min(g["nearest_outsider"] / g["radii"])
    assert ratio == g["gamma"]


# ---- cluster ------------------------------------------------------------------------------------
RUNS = [
    dict(oracle="random", q=0.7, eta=5, beta=10, seed=3),
    dict(oracle="random", q=0.7, eta=2, beta=3, seed=8, search="random"),
    dict(oracle="local", nu=1.2, rho=0.8, eta=4, beta=5, seed=1, search="distance"),
    dict(oracle="global", rho=0.6, eta=3, beta=4, seed=2, assignment="code"),
    dict(oracle="random", q=0.6, eta=2, seed=4, algorithm="original"),
    dict(oracle="perfect", eta=1, seed=9, semantics="authors-code", rules=["anchor=opener"]),
    dict(oracle="random", q=0.5, eta=2, beta=3, seed=5, memory="per-pair"),
]


def cli_args(run):
    args = []
    for key, value in run.items():
        if key == "rules":
            for r in value:
                args += ["--rule", r]
        else:
            args += [f"--{key}", value]
    return args


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['oracle']}-{r['seed']}" for r in RUNS])
def test_cluster_equals_cli(cli, data_csv, tmp_path, run):
    out, trace = tmp_path / "labels.csv", tmp_path / "t.jsonl"
    p = cli("cluster", data_csv, "--k", 3, *cli_args(run), "--out", out, "--trace", trace,
            "--json")
    X, y = ssac.read_csv(data_csv)
    r = ssac.cluster(X, y, k=3, **run)
    assert np.array_equal(r["labels"], read_labels(out))
    assert r["trace"] == trace.read_text()  # every draw, query, step and label
    summary = json.loads(p.stdout)
    for key in ("status", "failed", "queries_phase1", "queries_phase2", "accuracy_pct"):
        assert r[key] == summary[key], key
    assert r["clusters_recovered"] == summary["labels_recovered"]
    assert [it["outcome"] for it in r["iterations"]] == \
        [it["outcome"] for it in summary["iterations"]]
    assert len(r["queries"]) == summary["queries_total"]
    # The query log as plain objects, and the same queries as the trace's query events.
    events = [json.loads(line) for line in r["trace"].splitlines()]
    logged = [{k: e[k] for k in ("iteration", "phase", "purpose", "x", "y", "answer")}
              for e in events if e["event"] == "query"]
    assert r["queries"] == logged
    # The header names the oracle's memory only when it is not fresh (docs/trace-format.md), and
    # the oracle in fields: its kind and the parameters that kind uses.
    assert events[0].get("oracle_memory", "fresh") == run.get("memory", "fresh")
    assert events[0]["version"] == 3
    assert events[0]["oracle"] == {"kind": run["oracle"],
                                   **{p: run[p] for p in ("q", "nu", "rho") if p in run}}
    # The iterations as plain objects use the trace's words: x1, and the step's x1_answer (the
    # plain search's z_answer).
    steps = [s for it in r["iterations"] for s in it["steps"]]
    own = "z_answer" if run.get("algorithm") == "original" else "x1_answer"
    assert steps and all(own in s and "anchor_answer" not in s for s in steps)
    assert all("x1" in it and "anchor" not in it for it in r["iterations"])


def test_cluster_with_a_callable_oracle(data_csv):
    X, y = ssac.read_csv(data_csv)
    asked = []

    def person(a, b):
        asked.append((a, b))
        return "yes" if y[a] == y[b] else "no"

    r = ssac.cluster(X, y, k=3, eta=3, oracle=person, seed=6)
    ref = ssac.cluster(X, y, k=3, eta=3, oracle="perfect", seed=6)
    assert np.array_equal(r["labels"], ref["labels"])
    assert asked == [(q["x"], q["y"]) for q in ref["queries"]]
    # Self-pairs are asked like any pair (S4; this run meets none); under self-pairs=off a callable
    # is never asked one, and is asked exactly the pairs the reference asks under that rule.
    off = []
    r_off = ssac.cluster(X, y, k=3, eta=30, oracle=lambda a, b: off.append((a, b)) or
                         ("yes" if y[a] == y[b] else "no"), seed=6, rules=["self-pairs=off"])
    assert off and all(a != b for a, b in off)
    assert off == [(q["x"], q["y"]) for q in r_off["queries"]]
    # A callable is no oracle the trace format describes: its header has no "oracle" field.
    assert r["trace"] == ref["trace"].replace('"oracle":{"kind":"perfect"},', "")


def test_callable_oracle_may_return_integers_and_raise(data_csv):
    X, y = ssac.read_csv(data_csv)
    r = ssac.cluster(X, y, k=3, eta=3, seed=6, oracle=lambda a, b: 1 if y[a] == y[b] else -1)
    assert r["status"] == "ok"

    def broken(a, b):
        raise KeyError("no answer")

    with pytest.raises(KeyError):
        ssac.cluster(X, y, k=3, eta=3, oracle=broken)


# ---- validate -----------------------------------------------------------------------------------
def corrupt(lines):
    """Turns the first "out" decision into "in" (docs/validate.md's corruption)."""
    for i, line in enumerate(lines):
        if '"decision":"out"' in line:
            return lines[:i] + [line.replace('"decision":"out"', '"decision":"in"')] + \
                lines[i + 1:], i + 1
    raise AssertionError("no out decision to corrupt")


def test_validate_conforms(data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    r = ssac.cluster(X, y, k=3, eta=4, oracle="random", q=0.8, seed=12)
    lines = r["trace"].splitlines()
    res = ssac.validate(lines, X)
    assert res and res.conforms and res.divergence is None
    assert res.events == len(lines) and res.queries == len(r["queries"])
    # A path and a CSV path, and lines as dicts, give the same answer.
    path = tmp_path / "t.jsonl"
    path.write_text(r["trace"])
    assert ssac.validate(path, data_csv).conforms
    assert ssac.validate(str(path), X).conforms
    assert ssac.validate([json.loads(line) for line in lines], X).conforms
    assert ssac.validate(r["trace"], X).conforms  # the text itself


def test_validate_catches_a_corrupted_trace_as_the_cli_does(cli, data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    r = ssac.cluster(X, y, k=3, eta=4, oracle="random", q=0.8, seed=12)
    bad, line = corrupt(r["trace"].splitlines())
    res = ssac.validate(bad, X)
    assert not res.conforms and not bool(res)
    d = res.divergence
    assert (d.event, d.phase, d.what, d.expected, d.found) == (line, 2, "decision", '"out"', '"in"')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n")
    p = cli("validate", "--data", data_csv, "--trace", path, check=False)
    assert p.returncode == 1
    assert p.stdout == f"{path}: does not conform: {d.message}\n"


def test_check_oracle_as_the_cli(cli, data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    # A perfect oracle's answers pass; one answer turned over is the first wrong one.
    lines = ssac.cluster(X, y, k=3, eta=3, seed=2)["trace"].splitlines()
    c = ssac.check_oracle(lines, data_csv)
    assert c and c.passes and c.wrong is None and c.oracle == "perfect" and c.oracle_from_header
    assert c.queries == sum('"event":"query"' in line for line in lines)
    at = next(i for i, line in enumerate(lines) if '"answer":"no"' in line)
    bad = lines[:at] + [lines[at].replace('"answer":"no"', '"answer":"yes"')] + lines[at + 1:]
    c = ssac.check_oracle(bad, X, labels=y)
    assert not c and c.wrong["event"] == at + 1
    assert (c.wrong["expected"], c.wrong["found"]) == ("no", "yes")
    # The rule that decides the answer, and the line the command prints.
    q = json.loads(bad[at])
    assert c.wrong["rule"] == (f"perfect oracle (Definition 3, never not-sure): x and y are in "
                               f"different clusters (labels {y[q['x']]} and {y[q['y']]})")
    assert c.verdict == c.wrong["message"] == (f"event {at + 1}: Q({q['x']}, {q['y']}): "
                                               f"{c.wrong['rule']}, so the oracle answers no; "
                                               f"the trace has yes")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(bad) + "\n")
    p = cli("validate", "--data", data_csv, "--trace", path, "--check-oracle", check=False)
    assert p.returncode == 1
    assert p.stdout.splitlines()[-1] == (f"{path}: oracle answers (perfect, from the trace's "
                                         f"header): {c.verdict}")
    # A random-weak trace: the abstentions and their interval, as the command prints them.
    r = ssac.cluster(X, y, k=3, eta=6, oracle="random", q=0.6, seed=5)
    c = ssac.check_oracle(r["trace"], X, labels=y)
    assert c.passes and c.trials > 0 and c.rate_lo <= 0.4 <= c.rate_hi
    path.write_text(r["trace"])
    out = cli("validate", "--data", data_csv, "--trace", path, "--check-oracle").stdout
    assert f"abstentions {c.abstentions} of {c.trials} = " in out
    with pytest.raises(ValueError):
        ssac.check_oracle(r["trace"], X)  # arrays need labels
    with pytest.raises(ValueError):
        ssac.check_oracle(r["trace"], X, labels=y, confidence=1.5)


def test_choices_as_the_cli(cli, data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    traces = [ssac.cluster(X, y, k=3, eta=2, beta=4, oracle="random", q=0.7, seed=s)["trace"]
              for s in range(1, 301)]
    r = ssac.choices(traces, X)
    assert r["passes"] and r["traces"] == 300 and r["impossible"] == 0
    kinds = {k["name"]: k for k in r["kinds"]}
    assert kinds["phase1_draw"]["choices"] == sum(kinds["phase1_draw"]["counts"]) > 0
    assert kinds["abstention"]["choices"] > 0
    # The joint kinds: pairs in a grid of 4 x 4 cells, or another size.
    assert kinds["phase1_pair"]["pairs"] and len(kinds["phase1_pair"]["counts"]) == 16
    assert not kinds["repeat_agreement"]["pairs"]
    r2 = ssac.choices(traces, X, grid=2)
    assert len({k["name"]: k for k in r2["kinds"]}["phase1_pair"]["counts"]) == 4
    with pytest.raises(ssac.ParameterError, match="grid"):
        ssac.choices(traces[:1], X, grid=33)
    # The same traces as files through the command line: the same verdict.
    paths = []
    for i, t in enumerate(traces[:50]):
        paths.append(tmp_path / f"t{i}.jsonl")
        paths[-1].write_text(t)
    assert cli("choices", "--data", data_csv, *paths).stdout.endswith("conforms\n")
    # Negative control: the headers claim q = 0.9 while the answers came at q = 0.7.
    lied = [t.replace('"q":0.7', '"q":0.9', 1) for t in traces]
    assert '"q":0.9' in lied[0]
    r = ssac.choices(lied, X)
    assert not r["passes"]
    kinds = {k["name"]: k for k in r["kinds"]}
    assert kinds["abstention"]["p"] < 1e-6 / 3
    assert kinds["abstention"]["not_sure"] > 2 * kinds["abstention"]["expected_not_sure"]
    # A trace that does not conform is left out and named, as by the command; the rest is pooled.
    r = ssac.choices([traces[0], corrupt(traces[1].splitlines())[0], traces[2]], X)
    assert not r["passes"] and r["traces"] == 2
    assert len(r["nonconforming"]) == 1 and r["nonconforming"][0].startswith("<trace 1>: event ")


def test_validate_reads_version_1_and_the_labels_clusters(cli, data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    # A version-1 trace (docs/trace-format.md, "Version 1") is read with its own field names, and,
    # naming no rules, under the rules of its time: self-pairs=off (S4).
    run = ssac.cluster(X, y, k=3, eta=3, seed=4, rules=["self-pairs=off"])
    events = [json.loads(line) for line in run["trace"].splitlines()]
    # The run names self-pairs=off in its header; a version-1 header that names no rules means it.
    del events[0]["semantics"], events[0]["rules"]
    v1 = []
    for e in events:
        e = {("anchor" if k == "x1" else "anchor_answer" if k == "x1_answer" else k): v
             for k, v in e.items()}
        if e.get("purpose") == "search_x1":
            e["purpose"] = "search_anchor"
        if e["event"] == "header":
            e["version"], e["oracle"] = 1, "perfect"
        v1.append(e)
    res = ssac.validate(v1, X)
    assert res.conforms and res.version == 1
    events[0]["version"] = 2
    assert ssac.validate(events, X).conforms and ssac.validate(events, X).version == 2
    # Version 3 names its rules unless they are the paper's of now: the same lines are then read
    # as a run that asked self-pairs, and diverge at the first self-pair.
    events[0]["version"] = 3
    assert not ssac.validate(events, X).conforms
    # k = 2 below the labels' 3 clusters: the header names oracle_clusters = 3 (elimination does
    # not apply, S2). Without it the replay takes the number from a labelled CSV, as the command
    # does, and refuses a header that names another.
    r = ssac.cluster(X, y, k=2, eta=4, oracle="random", q=0.5, seed=3)
    lines = [json.loads(line) for line in r["trace"].splitlines()]
    assert lines[0]["oracle_clusters"] == 3
    del lines[0]["oracle_clusters"]
    assert ssac.validate(lines, data_csv).conforms
    lines[0]["oracle_clusters"] = 4
    with pytest.raises(ssac.DataError, match="oracle_clusters = 4 but the data's labels have 3"):
        ssac.validate(lines, data_csv)


def test_validate_names_the_profile_and_takes_semantics_and_rules(cli, data_csv, tmp_path):
    """ValidationResult.profile: the rules the header or semantics=/rules= chose, None for the
    version's default; and a header naming no rules is replayed under the paper's unless told."""
    X, y = ssac.read_csv(data_csv)
    plain = ssac.validate(ssac.cluster(X, y, k=3, eta=2, beta=3, oracle="random", q=0.7,
                                       seed=1)["trace"], X)
    assert plain and plain.profile is None and plain.ties == 0
    # The first authors-code run that asks B a query of two rows: it shows the argument order.
    for seed in range(1, 20):
        trace = ssac.cluster(X, y, k=3, eta=2, beta=3, oracle="random", q=0.7,
                             semantics="authors-code", seed=seed)["trace"]
        events = [json.loads(line) for line in trace.splitlines()]
        if any(e.get("purpose") == "search_sample" and e["x"] != e["y"] for e in events):
            break
    else:
        raise AssertionError("no authors-code run of seeds 1-19 asks B a query of two rows")
    res = ssac.validate(trace, X)
    assert res and res.profile == "authors-code" and res.ties == 0
    assert repr(res).startswith("<ssac.ValidationResult: conforms under authors-code (")
    # The header without "semantics" and "rules": the paper's rules, and B's pair is reversed.
    assert events[0].pop("semantics") == "authors-code"
    events[0].pop("rules")
    bare = ssac.validate(events, X)
    assert not bare and bare.profile is None
    assert "same pair, reversed" in bare.divergence.message
    told = ssac.validate(events, X, semantics="authors-code")
    assert told and told.profile == "authors-code"
    # A rule on top of the profile makes a custom one, named with its rules; the paper's B order
    # is the reversed pair again.
    custom = ssac.validate(events, X, semantics="authors-code", rules=["b-order=xj-first"])
    assert not custom and custom.profile.startswith("custom rules anchor=lowest-labelled-row ")
    assert "same pair, reversed" in custom.divergence.message
    # As the command line says it.
    path = tmp_path / "bare.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    p = cli("validate", "--data", data_csv, "--trace", path, "--semantics", "authors-code")
    assert p.stdout.startswith(f"{path}: conforms under authors-code (")
    # A header that names rules is refused other rules; an unknown name is refused.
    with pytest.raises(ssac.ParameterError, match="the header names the rules"):
        ssac.validate(trace, X, semantics="paper")
    with pytest.raises(ssac.ParameterError, match="semantics = 'authors' is not one of"):
        ssac.validate(events, X, semantics="authors")
    with pytest.raises(ssac.ParameterError, match="b-order takes xj-first or b-first"):
        ssac.validate(events, X, rules=["b-order=b-last"])


def test_validate_refuses_other_data_and_malformed_traces(data_csv):
    X, y = ssac.read_csv(data_csv)
    lines = ssac.cluster(X, y, k=3, eta=2, seed=1)["trace"].splitlines()
    moved = X.copy()
    moved[0, 0] += 1.0
    with pytest.raises(ssac.DataError, match="fingerprint"):
        ssac.validate(lines, moved)
    with pytest.raises(ssac.DataError, match=r"^<trace>:2:[0-9]+: not JSON"):
        ssac.validate([lines[0], "{not json"] + lines[2:], X)
    with pytest.raises(ssac.DataError, match="cannot open"):
        ssac.validate("/nonexistent/t.jsonl", X)


# ---- bounds -------------------------------------------------------------------------------------
@pytest.mark.parametrize("k,m,n,delta,gamma,q", [
    (3, 2, 1000, "0.05", "1.1", "0.9"),
    (10, 50, 100000, "0.001", "1.01", "0.5"),  # integers past 2^64 are not rounded
    (2, 1, 2, "0.5", "3", "1"),
    (30, 2, 1000, "0.05", "1.1", "0.1"),  # eta_random > 2^64
])
def test_bounds_equal_cli_json(cli, k, m, n, delta, gamma, q):
    p = cli("bounds", "--k", k, "--m", m, "--n", n, "--delta", delta, "--gamma", gamma, "--q", q,
            "--format", "json")
    want = json.loads(p.stdout)[0]
    got = ssac.bounds(k=k, m=m, n=n, delta=delta, gamma=gamma, q=q)
    for key, value in got.items():
        if key in ("delta", "gamma", "q"):
            assert float(value) == want[key]
        else:
            assert value == want[key], key


def test_bounds_integers_are_exact_python_ints():
    b = ssac.bounds(k=30, m=2, n=1000, delta="0.05", gamma="1.1", q="0.1")
    assert isinstance(b["eta_random"]["ceil"], int) and b["eta_random"]["ceil"] > 2**64
    assert ssac.bounds(delta=0.05)["eta_perfect"] == ssac.bounds(delta="0.05")["eta_perfect"]


# ---- errors -------------------------------------------------------------------------------------
def cli_error(cli, *args):
    p = cli(*args, check=False)
    assert p.returncode in (1, 2), p.stderr
    return p.stderr.strip().split(": error: ", 1)[1]


def test_parameter_errors_carry_the_cli_message(cli, data_csv):
    X, y = ssac.read_csv(data_csv)
    cases = [
        (dict(k=3, eta=5, oracle="random", q=1.5), ["--k", 3, "--eta", 5, "--oracle", "random",
                                                     "--q", 1.5]),
        (dict(k=3, eta=0), ["--k", 3, "--eta", 0]),
        (dict(k=3, eta=5, beta=0), ["--k", 3, "--eta", 5, "--beta", 0]),
        (dict(k=3, eta=5, oracle="local", nu=0.5), ["--k", 3, "--eta", 5, "--oracle", "local",
                                                     "--nu", 0.5]),
    ]
    for kwargs, args in cases:
        with pytest.raises(ssac.ParameterError) as e:
            ssac.cluster(X, y, **kwargs)
        assert isinstance(e.value, ValueError)
        assert str(e.value) == cli_error(cli, "cluster", data_csv, *args)
    # k has one range, [1, n]: k above the labels' clusters runs (and cannot recover k), as in
    # the command line.
    r = ssac.cluster(X, y, k=4, eta=5)
    assert r["failed"] and r["clusters_recovered"] <= 3
    with pytest.raises(ValueError) as e:
        ssac.bounds(delta="1")
    assert str(e.value) == cli_error(cli, "bounds", "--delta", "1")
    with pytest.raises(ssac.ParameterError, match="expected a name or a callable"):
        ssac.cluster(X, y, k=3, eta=2, oracle=3)
    with pytest.raises(ssac.ParameterError, match="^oracle = 'psychic' is not one of"):
        ssac.cluster(X, y, k=3, eta=2, oracle="psychic")
    with pytest.raises(ssac.ParameterError, match="an answer is 'yes', 'no', 'not-sure'"):
        ssac.cluster(X, y, k=3, eta=2, oracle=lambda a, b: "maybe")


def test_data_errors(cli, data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    assert issubclass(ssac.DataError, ValueError)
    gap = y.copy()
    gap[gap == 2] = 4
    with pytest.raises(ssac.DataError, match="no row has label 2"):
        ssac.gamma(X, gap)
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ssac.DataError, match="row 3, column 1 is not finite"):
        ssac.cluster(bad, y, k=3, eta=2)
    with pytest.raises(ssac.DataError, match="expected integers"):
        ssac.gamma(X, y.astype(float))
    with pytest.raises(ssac.DataError, match="none given"):
        ssac.cluster(X, None, k=3, eta=2, oracle="random", q=0.5)
    path = tmp_path / "bad.csv"
    path.write_text("x1,x2\n1,2\n3,oops\n")
    with pytest.raises(ssac.DataError) as e:
        ssac.read_csv(path)
    assert str(e.value) == cli_error(cli, "gamma", path)
    # The generator's ranges (ssac/ranges.hpp), in the command line's words.
    with pytest.raises(ssac.ParameterError, match=r"^k = 0 is outside its admissible range \[1, n\]"):
        ssac.generate(n=10, k=0)
    with pytest.raises(ssac.ParameterError, match=r"^n = 1 is outside its admissible range \[2, 100000000\]$"):
        ssac.generate(n=1)


# ---- without numpy --------------------------------------------------------------------------------
def test_import_bounds_and_validate_need_no_numpy(data_csv, tmp_path):
    X, y = ssac.read_csv(data_csv)
    trace = tmp_path / "t.jsonl"
    trace.write_text(ssac.cluster(X, y, k=3, eta=2, seed=1)["trace"])
    code = ("import sys; sys.modules['numpy'] = None\n"  # any `import numpy` now fails
            "import ssac\n"
            f"assert ssac.validate({str(trace)!r}, {str(data_csv)!r}).conforms\n"
            "print(ssac.bounds()['eta_random']['ceil'])\n"
            "try:\n"
            f"    ssac.read_csv({str(data_csv)!r})\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ,
                                PYTHONPATH=os.path.dirname(os.path.dirname(ssac.__file__))))
    assert p.returncode == 0, p.stderr
    assert p.stdout == (f"5815\nssac.read_csv takes or returns NumPy arrays, and this interpreter "
                        f"({sys.executable}) has no numpy; Debian's /usr/bin/python3 has it "
                        f"(python3-numpy)\n")


# ---- scripts/python-path.sh -----------------------------------------------------------------------
def test_python_path_script_puts_the_module_on_the_path(tmp_path):
    source = os.environ["SSAC_SOURCE_DIR"]
    moddir = os.path.dirname(os.path.dirname(ssac.__file__))  # BUILD/python, above the package
    site = tmp_path / "site"
    p = subprocess.run(["bash", os.path.join(source, "scripts/python-path.sh"),
                        os.path.dirname(moddir)], capture_output=True, text=True,
                       env=dict(os.environ, SSAC_SITE_DIR=str(site)))
    assert p.returncode == 0, p.stderr
    assert f"{sys.executable}: {site}/ssac.pth -> {moddir}" in p.stdout
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = f"import site; site.addsitedir({str(site)!r}); import ssac; print(ssac.__file__)"
    # -S: without the interpreter's own site directories, where another build's ssac.pth may be
    # (scripts/python-path.sh run for another tree) and would come first.
    p = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                       env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == os.path.join(moddir, "ssac", "__init__.py")
    # A build directory without the module is an error, not a silent success.
    p = subprocess.run(["bash", os.path.join(source, "scripts/python-path.sh"), str(tmp_path)],
                       capture_output=True, text=True, env=dict(os.environ, SSAC_SITE_DIR=str(site)))
    assert p.returncode == 1 and "no package ssac" in p.stderr
