"""ssac.TraceWriter: an outside implementation's run recorded in one call per event.

The writer is checked three ways: re-recording the reference's own traces through its calls gives
the same bytes (so every field, its order and its number format are the format's); the traces of
an independent implementation written with it (examples/python/traced_ssac.py) conform, while a
real deviation of that implementation is caught; and every call out of the format's order or
outside its values is refused with a message naming the call."""
import json
import math
import os
import sys

import numpy as np
import pytest

import ssac

sys.path.insert(0, os.path.join(os.environ.get("SSAC_SOURCE_DIR", ""), "examples", "python"))
import traced_ssac  # noqa: E402


def rerecord(trace_text, X, **header):
    """The events of a trace written again through the writer's calls."""
    events = [json.loads(line) for line in trace_text.splitlines()]
    h = events[0]
    w = ssac.TraceWriter(X, k=h["k"], eta=h["eta"], beta=h["beta"], search=h["search"],
                         algorithm=h["algorithm"], oracle=h.get("oracle"), seed=h.get("seed"),
                         **header)
    for e in events[1:]:
        kind = e["event"]
        if kind == "iteration":
            w.iteration(e["remaining"])
        elif kind == "sample":
            w.sample(e["rows"])
        elif kind == "anchor":
            w.anchor(e["x"], e["cluster"], e["candidates"], e["row"])
        elif kind == "query":
            w.query(e["x"], e["y"], e["answer"], e["purpose"])
        elif kind == "assignment":
            w.assignment(e["clusters"])
        elif kind == "cluster":
            w.cluster(e["p"], e["zp_size"], e["center"], e["x1"], revisited=e["revisited"])
        elif kind == "step":
            answers = {k: e[k] for k in ("x1_answer", "z_answer") if k in e}
            w.step(e["lo"], e["hi"], e["j"], e["row"], e["decision"], sample=e["sample"],
                   sample_answers=e["sample_answers"], **answers)
        elif kind == "outcome":
            radius = e["radius"]
            w.outcome(e["outcome"], j_star=e["j_star"],
                      radius=math.inf if radius == "inf" else radius, assigned=e["assigned"])
        elif kind == "final":
            w.final(e["labels"], e["status"], e["clusters_recovered"], e["failed"])
    assert w.finished
    return w.text()


@pytest.mark.parametrize("search,oracle,extra", [
    ("unified", "random", {"q": 0.7}),
    ("random", "random", {"q": 0.6}),
    ("distance", "perfect", {}),
    ("unified", "random", {"q": 0.8, "rules": ["anchor=random-known-row"]}),
])
def test_rerecording_the_references_trace_gives_its_bytes(data_csv, search, oracle, extra):
    d = np.loadtxt(data_csv, delimiter=",", skiprows=1)
    X, y = d[:, :2], d[:, 2].astype(int)
    for seed in range(4):
        run = ssac.cluster(X, y, k=3, eta=2, beta=3, search=search, oracle=oracle, seed=seed,
                           **extra)
        rules = " ".join(extra.get("rules", []))
        assert rerecord(run["trace"], X, rules=rules) == run["trace"]


def test_an_independent_implementations_traces_conform(data_csv):
    d = np.loadtxt(data_csv, delimiter=",", skiprows=1)
    X, y = d[:, :2], d[:, 2].astype(int)
    for search in ("unified", "random"):
        for seed in range(8):
            result = ssac.validate(traced_ssac.traced_run(X, y, 3, 4, 3, 0.7, seed, search), X)
            assert result, f"{search}, seed {seed}: {result.divergence}"


def test_a_real_deviation_is_caught_at_the_center(data_csv):
    """Negative control: mu'_p over Z_p's distinct rows instead of the multiset."""
    d = np.loadtxt(data_csv, delimiter=",", skiprows=1)
    X, y = d[:, :2], d[:, 2].astype(int)
    results = [ssac.validate(traced_ssac.traced_run(X, y, 3, 4, 3, 0.7, s,
                                                    deviation="distinct-mean"), X)
               for s in range(8)]
    caught = [r for r in results if not r]
    assert caught
    assert all(r.divergence.what.startswith("center") for r in caught)


# Three unit squares 10 apart: integer corners put many points of S_i at exactly equal distances
# from mu'_p (S6's ties).
SQUARES = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [10, 0], [11, 0], [10, 1], [11, 1],
                    [0, 10], [1, 10], [0, 11], [1, 11]], dtype=float)
SQUARE_LABELS = np.repeat([1, 2, 3], 4)


def test_exact_ties_broken_otherwise_conform_and_are_counted(cli, tmp_path):
    """Equal distances ordered by decreasing row (a freedom the paper leaves, S6): the traces
    conform, ValidationResult.ties counts the ties followed, as `ssac validate` does."""
    X, y = SQUARES, SQUARE_LABELS
    data = tmp_path / "squares.csv"
    data.write_text("x1,x2,label\n" + "".join(f"{a:g},{b:g},{t}\n" for (a, b), t in zip(X, y)))
    changed = 0
    for seed in range(12):
        by_row = traced_ssac.traced_run(X, y, 3, 3, 3, 0.6, seed)
        other = traced_ssac.traced_run(X, y, 3, 3, 3, 0.6, seed, ties="reversed")
        r = ssac.validate(by_row, X)
        assert r and r.ties == 0 and r.profile is None, f"seed {seed}: {r!r}"
        o = ssac.validate(other, X)
        assert o, f"seed {seed}: {o.divergence}"
        if other == by_row:
            assert o.ties == 0
            continue
        changed += 1
        assert o.ties >= 1
        said = f"conforms; {o.ties} exact tie{'' if o.ties == 1 else 's'} resolved as the trace did"
        assert repr(o).startswith(f"<ssac.ValidationResult: {said} (")
        path = tmp_path / f"t{seed}.jsonl"
        path.write_text(other)
        assert cli("validate", "--data", data, "--trace", path).stdout.startswith(
            f"{path}: {said} (")
    assert changed >= 8, f"the tie order changed only {changed} of 12 traces"


def test_a_tolerance_is_no_tie():
    """Negative control: distances within 1e-9 ordered as equal (and those by decreasing row) on
    squares moved by 1e-11 per row, where the near-equal distances differ: not a tie of S6."""
    X = SQUARES + 1e-11 * np.arange(len(SQUARES))[:, None]
    results = [ssac.validate(traced_ssac.traced_run(X, SQUARE_LABELS, 3, 3, 3, 0.6, s,
                                                    deviation="near-ties", ties="reversed"), X)
               for s in range(12)]
    caught = [r for r in results if not r]
    assert len(caught) >= 6
    assert all(r.divergence.near_tie and "near-tie in the distance order" in r.divergence.message
               for r in caught)


def writer(n=4, **kw):
    X = np.array([[0.0, 0.0], [1.0, 0.0], [10.0, 0.0], [11.0, 0.0]])[:n]
    return ssac.TraceWriter(X, k=kw.pop("k", 2), eta=kw.pop("eta", 1), beta=kw.pop("beta", 2),
                            **kw)


def test_header_from_keywords():
    w = writer(oracle={"kind": "random", "q": 0.7}, seed=3, eta=1.5)
    h = json.loads(w.lines[0])
    assert h["n"] == 4 and h["m"] == 2 and h["k"] == 2 and h["r"] == 3 and h["version"] == 3
    assert h["fingerprint"].startswith("sha256:") and h["oracle"] == {"kind": "random", "q": 0.7}
    assert h["seed"] == 3 and "rules" not in h and "semantics" not in h
    a = json.loads(writer(rules="authors-code").lines[0])
    assert a["semantics"] == "authors-code" and a["assignment"] == "code"
    assert a["rules"].startswith("anchor=lowest-labelled-row ")
    v4 = json.loads(writer(rules="anchor=random-known-row").lines[0])
    assert v4["version"] == 4 and v4["semantics"] == "custom"


@pytest.mark.parametrize("calls,message", [
    ([("sample", [0])], "sample(): out of order: the format has it right after iteration()"),
    ([("iteration", 4), ("assignment", [])],
     "assignment(): out of order: the format has it after the sample's queries"),
    ([("iteration", 4), ("sample", [0]), ("cluster", 1, 1, [0.0, 0.0], 0)],
     "cluster(): out of order: the format has it right after assignment()"),
    ([("iteration", 4), ("sample", [0]), ("assignment", [0]), ("outcome", "phase1_all_not_sure"),
      ("iteration", 4), ("sample", [1]), ("assignment", [0]),
      ("outcome", "phase1_all_not_sure"), ("iteration", 4)],
     "iteration(): out of order: the format has it at most k = 2 times"),
    ([("iteration", 0), ("outcome", "empty_remainder"), ("iteration", 0)],
     "iteration(): out of order: the format has it never after an iteration that ended in"),
    ([("iteration", 4), ("outcome", "phase1_all_not_sure")],
     "outcome(): out of order: the format has it as \"phase1_all_not_sure\" only after"),
    ([("iteration", 4), ("sample", [4])], "sample: row 4 is outside 0..n-1 = 3"),
    ([("iteration", 4), ("sample", [0, 1]), ("assignment", [1])],
     "assignment: 1 clusters for a sample of 2 draws"),
    ([("iteration", 4), ("sample", [0]), ("query", 0, 0, "maybe")],
     "query: answer \"maybe\" is not one of \"yes\", \"no\", \"not-sure\""),
    ([("iteration", 4), ("sample", [0]), ("query", 0, 0, "yes", "search_x1")],
     "query: Phase-1 queries have purpose \"assignment\""),
    ([("iteration", 4), ("sample", [0]), ("anchor", 0, 1, [0], 0)],
     "anchor(): out of order: the format has it only under anchor=random-labelled-row"),
    ([("iteration", 4), ("sample", [0]), ("assignment", [1]), ("cluster", 1, 1, [0.0], 0)],
     "cluster: center has 1 coordinates, the data 2"),
    ([("iteration", 4), ("sample", [0]), ("assignment", [1]), ("cluster", 1, 1, [0.0, 0.0], 0),
      ("step", 0, 3, 2, 0, "in")], "step: j = 2 is not floor((lo + hi) / 2) = 1"),
    ([("final", [0, 0, 0], "ok", 0, True)], "final: 3 labels for 4 points"),
])
def test_calls_out_of_order_or_range_are_refused(calls, message):
    w = writer()
    *before, last = calls
    for name, *args in before:
        getattr(w, name)(*args)
    with pytest.raises(ssac.ParameterError) as e:
        getattr(w, last[0])(*last[1:])
    assert str(e.value).startswith(message), str(e.value)


def test_a_file_only_once_the_run_is_finished(tmp_path):
    w = writer()
    path = tmp_path / "t.jsonl"
    with pytest.raises(ssac.ParameterError, match="not finished"):
        w.write(path)
    assert not path.exists()
    w.iteration(4)
    w.sample([1])
    w.query(1, 1, "not-sure")
    w.assignment([0])
    w.outcome("phase1_all_not_sure")
    w.final([0, 0, 0, 0], "iteration 1: phase1_all_not_sure; fewer than k clusters recovered "
            "(0 of 2)", 0, True, path=path)
    assert path.read_text() == w.text()
    assert [json.loads(x)["event"] for x in w.text().splitlines()] == \
        ["header", "iteration", "sample", "query", "assignment", "outcome", "final"]
    assert json.loads(w.lines[-1])["queries_phase1"] == 1  # counted from the queries recorded
