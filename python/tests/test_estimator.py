"""ssac.SSAC and ssac.oracles: scikit-learn's conventions, the same run as `ssac cluster`, oracles
written for other libraries, budgets, the person at the terminal, and the constraints out."""
import io
import json
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import ssac
from ssac import oracles

sklearn = pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.exceptions import NotFittedError as SkNotFittedError  # noqa: E402


@pytest.fixture(scope="module")
def data(data_csv):
    return ssac.read_csv(data_csv)


def read_labels(path):
    return np.loadtxt(path, skiprows=1, dtype=np.int64)


# ---- parameters, clone, repr, pickle ---------------------------------------------------------------
def test_constructor_stores_parameters_and_clone_works():
    est = ssac.SSAC(n_clusters=3)
    assert est.get_params() == {"n_clusters": 3, "eta": None, "beta": None, "delta": 0.05,
                                "gamma": 1.1, "search": None, "algorithm": "weak",
                                "semantics": "paper", "rules": (), "random_state": None}
    c = clone(est)
    assert c is not est and c.get_params() == est.get_params()
    assert repr(est) == "SSAC(n_clusters=3)"
    assert repr(ssac.SSAC(n_clusters=3, eta=4, random_state=1)) == \
        "SSAC(eta=4, n_clusters=3, random_state=1)"
    assert est.set_params(eta=5, beta=2) is est and (est.eta, est.beta) == (5, 2)
    with pytest.raises(ValueError, match="Invalid parameter 'k'"):
        est.set_params(k=3)
    # Nothing is checked or computed before fit: a bad value is stored as given.
    assert ssac.SSAC(n_clusters=-1).n_clusters == -1


def test_not_fitted_error_before_fit():
    est = ssac.SSAC(n_clusters=3)
    for name in ("labels_", "cluster_centers_", "queries_", "must_link_"):
        with pytest.raises(SkNotFittedError, match="not fitted yet"):
            getattr(est, name)
    with pytest.raises(ssac.NotFittedError):
        est.constraints()
    assert not hasattr(est, "labels_")
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        est.nonsense


def test_pickle_round_trips_a_fitted_estimator(data):
    X, y = data
    est = ssac.SSAC(n_clusters=3, eta=4, beta=3, random_state=5).fit(
        X, oracle=oracles.RandomWeak(y, q=0.7))
    back = pickle.loads(pickle.dumps(est))
    assert back.get_params() == est.get_params()
    for name in ("labels_", "cluster_centers_"):
        assert np.array_equal(getattr(back, name), getattr(est, name), equal_nan=True)
    for name in ("queries_", "n_queries_", "status_", "trace_", "must_link_", "cannot_link_",
                 "n_features_in_", "seed_"):
        assert getattr(back, name) == getattr(est, name), name
    # The unpickled estimator refits to the same run.
    assert np.array_equal(back.fit(X, oracle=oracles.RandomWeak(y, q=0.7)).labels_, est.labels_)


# ---- the same run as the command line ------------------------------------------------------------
CASES = [
    (dict(eta=10, beta=6, random_state=7), ["--oracle", "random", "--q", 0.7],
     lambda y: oracles.RandomWeak(y, q=0.7)),
    (dict(eta=3, beta=4, random_state=2), ["--oracle", "local", "--nu", 1.2, "--rho", 0.8],
     lambda y: oracles.LocalDistanceWeak(y, nu=1.2, rho=0.8)),
    (dict(eta=3, beta=4, random_state=3), ["--oracle", "global", "--rho", 0.6],
     lambda y: oracles.GlobalDistanceWeak(y, rho=0.6)),
    (dict(eta=2, random_state=4, algorithm="original", beta=2),
     ["--oracle", "random", "--q", 0.6, "--algorithm", "original"],
     lambda y: oracles.RandomWeak(y, q=0.6)),
    (dict(eta=1, beta=2, random_state=9, semantics="authors-code", rules=("anchor=opener",)),
     ["--oracle", "perfect", "--semantics", "authors-code", "--rule", "anchor=opener"],
     lambda y: oracles.Perfect(y)),
]


@pytest.mark.parametrize("params,args,oracle", CASES, ids=["random", "local", "global",
                                                          "original", "authors-code"])
def test_fit_twice_equals_itself_and_ssac_cluster(cli, data_csv, data, tmp_path, params, args,
                                                  oracle):
    X, y = data
    est = ssac.SSAC(n_clusters=3, **params)
    first = est.fit(X, oracle=oracle(y))
    labels, queries, trace = first.labels_.copy(), first.queries_, first.trace_
    assert est.fit(X, oracle=oracle(y)) is est  # fit returns self; a refit replaces everything
    assert np.array_equal(est.labels_, labels) and est.queries_ == queries
    assert est.trace_ == trace

    out, tr = tmp_path / "labels.csv", tmp_path / "t.jsonl"
    p = cli("cluster", data_csv, "--k", 3, "--eta", params["eta"], "--beta", params["beta"],
            "--seed", params["random_state"], *args, "--out", out, "--trace", tr, "--json")
    # labels_ is the command line's label - 1 (clusters 0..k-1, -1 unassigned).
    assert np.array_equal(est.labels_ + 1, read_labels(out))
    assert est.trace_ == tr.read_text()  # every draw, query, step and label, byte for byte
    summary = json.loads(p.stdout)
    assert est.n_queries_ == summary["queries_total"] and est.status_ == summary["status"]
    # Negative control: another seed is another run, so the comparisons above can fail.
    other = ssac.SSAC(n_clusters=3, **dict(params, random_state=params["random_state"] + 1))
    assert other.fit(X, oracle=oracle(y)).queries_ != queries  # not only the header's seed
    # cluster_centers_[t - 1] is mu'_t of the iteration that last recovered cluster t.
    recovered = {it["p"]: it["center"] for it in est.iterations_ if it["outcome"] == "recovered"}
    for t, c in recovered.items():
        assert np.array_equal(est.cluster_centers_[t - 1], c)
    for t in set(range(1, 4)) - set(recovered):
        assert np.isnan(est.cluster_centers_[t - 1]).all()


def test_lists_and_arrays_give_the_same_fit(data):
    X, y = data
    a = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=1).fit(X, oracle=oracles.Perfect(y))
    b = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=1).fit(
        X.tolist(), oracle=oracles.Perfect([f"c{v}" for v in y]))  # any label values
    assert np.array_equal(a.labels_, b.labels_) and a.queries_ == b.queries_
    assert np.array_equal(ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=1)
                          .fit_predict(X, y), a.labels_)  # y alone: a perfect oracle's truth


@pytest.mark.parametrize("bad,message", [
    (lambda X: np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), "contains NaN"),
    (lambda X: np.where(np.arange(X.size).reshape(X.shape) == 7, np.inf, X), "contains infinity"),
    (lambda X: X[:, 0], "Expected 2D array"),
    (lambda X: X[None], "Expected 2D array"),
    (lambda X: X[:0], r"0 sample\(s\) \(shape=\(0, 2\)\)"),
    (lambda X: X[:, :0], r"0 feature\(s\) \(shape=\(240, 0\)\)"),
    (lambda X: X + 1j, "Complex data not supported"),
    (lambda X: [["a", "b"]] * len(X), "not convertible"),
    (lambda X: [[1.0, 2.0], [3.0]] + X[2:].tolist(), "not convertible"),
])
def test_input_validation(data, bad, message):
    X, y = data
    with pytest.raises(ValueError, match=message):
        ssac.SSAC(n_clusters=3, eta=2).fit(bad(X), oracle=oracles.Perfect(y))


def test_parameter_errors_are_the_librarys(data):
    X, y = data
    with pytest.raises(ssac.ParameterError, match="outside its admissible range"):
        ssac.SSAC(n_clusters=0, eta=2).fit(X, oracle=oracles.Perfect(y))
    with pytest.raises(ssac.ParameterError, match="q = 1.5 is outside"):
        ssac.SSAC(n_clusters=3, eta=2).fit(X, oracle=oracles.RandomWeak(y, q=1.5))
    with pytest.raises(ValueError, match="truth: expected 240 labels"):
        ssac.SSAC(n_clusters=3, eta=2).fit(X, oracle=oracles.Perfect(y[:10]))
    with pytest.raises(TypeError, match="fit needs an oracle"):
        ssac.SSAC(n_clusters=3, eta=2).fit(X)
    with pytest.raises(ssac.ParameterError, match="need the oracle's q"):
        ssac.SSAC(n_clusters=3).fit(X, oracle=oracles.GlobalDistanceWeak(y, rho=0.6))
    with pytest.raises(ssac.ParameterError, match="n_clusters = None"):
        ssac.SSAC(eta=2, beta=2).fit(X, oracle=lambda i, j: None)


def test_certified_defaults_of_eta_and_beta(data):
    X, y = data
    n, m = X.shape
    est = ssac.SSAC(random_state=0).fit(X, oracle=oracles.RandomWeak(y, q=0.9))
    b = ssac.bounds(k=3, m=m, n=n, delta="0.05", gamma="1.1", q="0.9")
    assert (est.eta_, est.beta_) == (b["eta_random"]["ceil"], b["beta_random"]["ceil"])
    assert est.status_ == "ok" and (est.labels_ >= 0).all()
    p = ssac.SSAC(delta=0.1, gamma=1.5, random_state=0).fit(X, oracle=oracles.Perfect(y))
    b1 = ssac.bounds(k=3, m=m, n=n, delta="0.1", gamma="1.5", q="1.0")
    assert (p.eta_, p.beta_) == (b1["eta_perfect"]["ceil"], b1["beta_random"]["ceil"])


# ---- oracles written for other libraries, budgets --------------------------------------------------
class MaximumQueriesExceeded(Exception):
    """As active-semi-supervised-clustering and scikit-query name theirs."""


class MLCLOracle:
    """An oracle in scikit-query's style: the truth and a budget, query(i, j) -> True / False,
    the budget's end raising MaximumQueriesExceeded."""

    def __init__(self, truth, budget=10**9):
        self.truth, self.budget, self.queries = truth, budget, 0

    def query(self, i, j):
        if self.queries >= self.budget:
            raise MaximumQueriesExceeded()
        self.queries += 1
        return bool(self.truth[i] == self.truth[j])


def test_an_oracle_object_in_scikit_querys_style_drives_a_fit(data):
    X, y = data
    o = MLCLOracle(y)
    est = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(X, oracle=o)
    ref = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=oracles.Perfect(y))
    assert o.queries == est.n_queries_ > 0 and est.status_ == "ok"
    # The same answers as the library's perfect oracle, so the same run (a perfect oracle draws
    # nothing): labels and queries equal.
    assert np.array_equal(est.labels_, ref.labels_) and est.queries_ == ref.queries_
    # A plain callable with the True / False / None convention, abstaining on a third of pairs.
    abstain = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=lambda i, j: None if (i + j) % 3 == 0 else bool(y[i] == y[j]))
    assert any(q["answer"] == "not-sure" for q in abstain.queries_)


def test_a_budget_spent_mid_run_keeps_the_answers_so_far(data):
    X, y = data
    full = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=oracles.RandomWeak(y, q=0.8))
    assert full.n_queries_ > 60
    for budget in (0, 1, 60, full.n_queries_ - 1):
        est = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
            X, oracle=oracles.RandomWeak(y, q=0.8, budget=budget))
        assert est.n_queries_ == budget and est.queries_ == full.queries_[:budget]
        iteration = full.queries_[budget]["iteration"]
        assert est.status_ == (f"stopped in iteration {iteration} after {budget} queries: the "
                               f"oracle's budget of {budget} queries is spent")
        # The labels are those of the iterations that ended, which the full run shares.
        done = [it for it in full.iterations_ if it["iteration"] < iteration]
        assert est.iterations_ == done
        rows = [r for it in done for r in it["members"]]
        assert np.array_equal(est.labels_[rows], full.labels_[rows])
        assert (np.delete(est.labels_, rows) == -1).all()
        # The trace so far: every line of the full run's trace up to the unanswered query.
        assert full.trace_.startswith(est.trace_) and '"event":"final"' not in est.trace_
    # A budget the run does not reach changes nothing.
    same = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=oracles.RandomWeak(y, q=0.8, budget=full.n_queries_))
    assert same.status_ == full.status_ and same.queries_ == full.queries_


def test_python_oracles_budgets_end_the_run_alike(data):
    X, y = data
    full = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(X, oracle=MLCLOracle(y))
    own = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=MLCLOracle(y, budget=40))  # another library's exception, by its name
    assert own.n_queries_ == 40 and own.queries_ == full.queries_[:40]
    assert own.status_.endswith("after 40 queries: the oracle raised MaximumQueriesExceeded")
    wrapped = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=oracles.Budgeted(lambda i, j: bool(y[i] == y[j]), 40))
    assert wrapped.queries_ == own.queries_
    assert wrapped.status_.endswith("the oracle raised MaximumQueriesExceeded: budget of 40 "
                                    "queries spent")
    # Any other exception is the oracle's error and goes through.
    with pytest.raises(ZeroDivisionError):
        ssac.SSAC(n_clusters=3, eta=3, beta=3).fit(X, oracle=lambda i, j: 1 / 0)
    with pytest.raises(ValueError, match=r"returned 'maybe'"):
        ssac.SSAC(n_clusters=3, eta=3, beta=3).fit(X, oracle=lambda i, j: "maybe")
    with pytest.raises(ValueError, match="budget = -1"):
        oracles.Perfect(y, budget=-1)
    b = oracles.Budgeted(MLCLOracle(y), 1)
    assert b.query(0, 1) in (True, False)
    with pytest.raises(oracles.MaximumQueriesExceeded):
        b.query(0, 1)


# ---- constraints out -------------------------------------------------------------------------------
def test_must_link_and_cannot_link_from_the_definite_answers(data):
    X, y = data
    est = ssac.SSAC(n_clusters=3, eta=3, beta=3, random_state=6).fit(
        X, oracle=oracles.RandomWeak(y, q=0.6))
    ml, cl = est.must_link_, est.cannot_link_
    assert ml and cl and all(a < b for a, b in ml + cl)
    assert all(y[a] == y[b] for a, b in ml) and all(y[a] != y[b] for a, b in cl)
    definite = {(min(q["x"], q["y"]), max(q["x"], q["y"])) for q in est.queries_
                if q["answer"] != "not-sure" and q["x"] != q["y"]}
    assert set(ml) | set(cl) == definite and len(ml) + len(cl) == len(definite)
    not_sure = {(min(q["x"], q["y"]), max(q["x"], q["y"])) for q in est.queries_
                if q["answer"] == "not-sure"}
    assert not_sure - definite and not (not_sure - definite) & (set(ml) | set(cl))
    cml, ccl = est.constraints(closure=True)
    assert set(ml) <= set(cml) and set(cl) <= set(ccl)
    assert all(y[a] == y[b] for a, b in cml) and all(y[a] != y[b] for a, b in ccl)
    assert est.constraints() == (ml, cl)
    with pytest.raises(ValueError, match="joins two points that must link"):
        ssac.transitive_closure([(0, 1), (1, 2)], [(0, 2)], 3)
    assert ssac.transitive_closure([(0, 1), (1, 2)], [(2, 3)], 4) == \
        ([(0, 1), (0, 2), (1, 2)], [(0, 3), (1, 3), (2, 3)])


# ---- the person at the terminal --------------------------------------------------------------------
def test_console_asks_resumes_from_its_answer_file_and_stops(data, data_csv, tmp_path, cli):
    X, y = data
    params = dict(n_clusters=3, eta=2, beta=2, random_state=4)
    ref = ssac.SSAC(**params).fit(X, oracle=oracles.Perfect(y))
    asked = []
    asked_rows = []

    class Out(io.StringIO):
        def write(self, s):
            import re
            m = re.match(r"  row (\d+):", s)
            if m:
                asked_rows.append(int(m.group(1)))
            return super().write(s)

    def reader(stop_after):
        def read(prompt):
            if len(asked) == stop_after:
                return "q"
            a, b = asked_rows[-2], asked_rows[-1]
            asked.append((a, b))
            return "y" if y[a] == y[b] else "n"
        return read

    path = tmp_path / "answers.csv"
    first = ssac.SSAC(**params).fit(X, oracle=oracles.Console(path, input=reader(5), output=Out()))
    lines = path.read_text().splitlines()
    assert lines[0].startswith("# ssac-answers 1 ") and len(lines) == 6
    assert first.status_.endswith(": the person stopped after 5 answers")
    assert first.n_queries_ >= 5 and first.queries_ == ref.queries_[:first.n_queries_]
    # Resumed from the file: the 5 answers are not asked again, and the run is a perfect one's.
    asked.clear()
    done = ssac.SSAC(**params).fit(X, oracle=oracles.Console(path, input=reader(10**9),
                                                              output=Out()))
    assert done.status_ == ref.status_ and np.array_equal(done.labels_, ref.labels_)
    assert done.queries_ == ref.queries_
    assert len(path.read_text().splitlines()) == 1 + 5 + len(asked)
    # The command line reads the same file as the same person's answers.
    out = tmp_path / "labels.csv"
    cli("cluster", data_csv, "--k", 3, "--eta", 2, "--beta", 2, "--seed", 4, "--oracle",
        "interactive", "--answers", path, "--out", out)
    assert np.array_equal(done.labels_ + 1, read_labels(out))
    # A second session cannot append to a file one holds (as `ssac label` locks it).
    import fcntl
    with open(path, "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(RuntimeError, match="another session holds this answer file"):
            ssac.SSAC(**params).fit(X, oracle=oracles.Console(path, input=reader(0),
                                                              output=Out()))
    # The answer file of another run is refused with the file's name and line.
    with pytest.raises(ssac.DataError, match="answers.csv:1: the answers were given for other"):
        ssac.SSAC(n_clusters=3, eta=3, beta=2, random_state=4).fit(
            X, oracle=oracles.Console(path, input=reader(0), output=Out()))


# ---- without scikit-learn --------------------------------------------------------------------------
def test_the_estimator_works_without_scikit_learn(data_csv):
    code = ("import sys, pickle; sys.modules['sklearn'] = None\n"
            "import ssac\n"
            f"X, y = ssac.read_csv({str(data_csv)!r})\n"
            "e = ssac.SSAC(n_clusters=3, eta=2, beta=2, random_state=1)\n"
            "try:\n"
            "    e.labels_\n"
            "except ssac.NotFittedError as err:\n"
            "    print(type(err).__mro__[1].__name__)\n"
            "e.fit(X, oracle=ssac.oracles.Perfect(y))\n"
            "print(repr(e), e.status_, pickle.loads(pickle.dumps(e)).n_queries_ == e.n_queries_)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "ValueError\nSSAC(beta=2, eta=2, n_clusters=3, random_state=1) ok True\n"


# ---- scikit-learn's estimator checks ---------------------------------------------------------------
# Every check scikit-learn 1.2 generates for the estimator runs (parameters, clone, repr, pickling,
# idempotent refits under one random_state, input validation: NaN, infinity, complex, object and
# sparse data, 1-D, empty, one sample, one feature, lists, sample order and subsets). They call
# fit(X, y) and y is then a perfect oracle's truth. The checks for clusterers (check_clustering,
# check_clusterer_compute_labels_predict) do not apply and are not generated (SSAC is no
# ClusterMixin subclass): they call fit(X) with neither y nor an oracle; docs/python.md lists them.
from sklearn.utils.estimator_checks import check_clustering, parametrize_with_checks  # noqa: E402


@parametrize_with_checks([ssac.SSAC(n_clusters=3, eta=2, beta=2, random_state=0)])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def test_the_clustering_checks_do_not_apply_because_fit_needs_an_oracle():
    with pytest.raises(TypeError, match="fit needs an oracle"):
        check_clustering("SSAC", ssac.SSAC(n_clusters=3, eta=2, beta=2, random_state=0))
