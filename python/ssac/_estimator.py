"""ssac.SSAC: SSAC as a scikit-learn-style clustering estimator (docs/python.md).

The estimator follows scikit-learn's conventions (the constructor stores its parameters and
nothing else; fit returns self; what fit learns ends in an underscore; get_params, set_params,
sklearn.base.clone, repr and pickling work) without importing scikit-learn, which costs most of a
second: `import ssac` stays quick, and the estimator works where scikit-learn is not installed.
Each fit is one run of ssac.cluster, i.e. of `ssac cluster` with the same parameters and seed.
"""
import inspect

import numpy as np

from . import _ssac, oracles

__all__ = ["SSAC", "NotFittedError", "transitive_closure"]

_FITTED = ("labels_", "cluster_centers_", "n_queries_", "queries_", "status_", "trace_",
           "n_features_in_", "must_link_", "cannot_link_", "iterations_", "eta_", "beta_",
           "seed_")


class NotFittedError(ValueError, AttributeError):
    """An SSAC estimator was used before fit. Where scikit-learn is installed the error raised is
    also a sklearn.exceptions.NotFittedError."""


def _not_fitted(name):
    msg = (f"This SSAC instance is not fitted yet (no {name}): call 'fit' with the data and an "
           f"oracle first.")
    try:
        from sklearn.exceptions import NotFittedError as sk
    except ImportError:
        return NotFittedError(msg)
    return type("NotFittedError", (NotFittedError, sk), {"__module__": "ssac"})(msg)


def _decimal(name, v):
    """A float parameter as the bounds read it: its repr, the decimal it was typed as."""
    if isinstance(v, bool) or not isinstance(v, (int, float, str, np.floating, np.integer)):
        raise _ssac.ParameterError(f"{name} = {v!r}: expected a number")
    return v if isinstance(v, str) else repr(float(v))


class SSAC:
    """Semi-Supervised Active Clustering with weak oracles (Kim & Ghosh, Algorithm 1 with
    Algorithm 2, 3 or 4 as `search`).

    Parameters
    ----------
    n_clusters : int or None
        k. None: the number of clusters of a simulated oracle's truth (an error for other oracles).
    eta, beta : float, int or None
        Phase 1's samples per cluster and Phase 2's draws per probe. None: the certified ceilings
        of Theorem 1 at `delta`, `gamma` and the oracle's q (eta_random and beta_random of `ssac
        bounds`; eta_perfect, the remark after Theorem 1, for a perfect oracle). For an oracle
        without a q (distance-weak, Python, Console) None is an error unless the oracle object has
        an attribute q.
    delta, gamma : float
        The failure probability and the gamma-margin the defaults of eta and beta are certified
        for (gamma is a hypothesis on the data that the user asserts; ssac.gamma(X, labels)
        measures it where labels are known). Defaults as `ssac bounds`: 0.05 and 1.1.
    search : str or None
        'unified' (the default), or another weak search of `ssac cluster --search`.
    algorithm : str
        'weak' (this paper) or 'original' (Ashtiani et al., plain binary search).
    semantics : str
        'paper' or 'authors-code' (proofs-notes/semantics.md).
    rules : tuple of str
        'name=value' rules on top of `semantics`.
    random_state : int, numpy RandomState or None
        An int is the seed of `ssac cluster --seed`; None or a RandomState draws one (seed_).
    """

    _estimator_type = "clusterer"

    def __init__(self, n_clusters=None, *, eta=None, beta=None, delta=0.05, gamma=1.1,
                 search=None, algorithm="weak", semantics="paper", rules=(), random_state=None):
        self.n_clusters = n_clusters
        self.eta = eta
        self.beta = beta
        self.delta = delta
        self.gamma = gamma
        self.search = search
        self.algorithm = algorithm
        self.semantics = semantics
        self.rules = rules
        self.random_state = random_state

    # ---- scikit-learn's estimator protocol ----

    @classmethod
    def _get_param_names(cls):
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values() if p.name != "self")

    def get_params(self, deep=True):
        return {name: getattr(self, name) for name in self._get_param_names()}

    def set_params(self, **params):
        valid = self._get_param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"Invalid parameter {name!r} for estimator {self!r}. "
                                 f"Valid parameters are: {valid!r}.")
            setattr(self, name, value)
        return self

    def __repr__(self):
        defaults = {p.name: p.default
                    for p in inspect.signature(type(self).__init__).parameters.values()}
        changed = [f"{k}={v!r}" for k, v in self.get_params().items()
                   if not (v is defaults[k] or (type(v) is type(defaults[k]) and v == defaults[k]))]
        return f"SSAC({', '.join(changed)})"

    def __getattr__(self, name):
        # Only reached when the attribute is missing: a fitted attribute before fit.
        if name in _FITTED:
            raise _not_fitted(name)
        raise AttributeError(f"'SSAC' object has no attribute {name!r}")

    def _more_tags(self):
        # fit asks an oracle for every row it clusters: it needs y (a perfect oracle's truth)
        # where no oracle is given, and labels only the rows it is given.
        return {"requires_y": False, "non_deterministic": False, "preserves_dtype": []}

    def _get_tags(self):
        try:
            from sklearn.utils._tags import _DEFAULT_TAGS
        except ImportError:
            _DEFAULT_TAGS = {}
        tags = dict(_DEFAULT_TAGS)
        tags.update(self._more_tags())
        return tags

    # ---- fitting ----

    def _seed(self):
        rs = self.random_state
        if isinstance(rs, (int, np.integer)) and not isinstance(rs, bool):
            if not 0 <= int(rs) < 2**64:
                raise _ssac.ParameterError(f"random_state = {rs} is outside its admissible range "
                                           f"[0, 2^64)")
            return int(rs)
        if rs is None:
            rs = np.random.mtrand._rand
        if isinstance(rs, np.random.RandomState):
            return int(rs.randint(0, 2**63 - 1, dtype=np.int64))
        raise _ssac.ParameterError(f"random_state = {rs!r}: expected an int, a "
                                   f"numpy.random.RandomState or None")

    def _validate_X(self, X):
        if hasattr(X, "toarray") or hasattr(X, "tocsr"):
            raise TypeError("X: a sparse matrix is not supported; pass a dense array "
                            "(X.toarray())")
        try:
            A = np.asarray(X)
            if np.iscomplexobj(A):
                raise ValueError("X: Complex data not supported (the points are real vectors)")
            A = A.astype(np.float64, copy=False)
        except TypeError as e:  # an object that is no number, e.g. a dict
            raise TypeError(f"X: not convertible to an array of floats ({e})") from None
        except ValueError as e:  # a string that is no number, or ragged rows
            if str(e).startswith("X: "):
                raise
            raise ValueError(f"X: not convertible to an array of floats ({e})") from None
        if A.ndim != 2:
            raise ValueError(f"Expected 2D array, got {A.ndim}D array instead: X must be (n_samples,"
                             f" n_features); reshape a single feature with X.reshape(-1, 1)")
        # The words of scikit-learn's check_array, which its checks look for.
        if A.shape[0] < 1:
            raise ValueError(f"Found array with 0 sample(s) (shape={A.shape}) while a minimum of 1 "
                             f"is required.")
        if A.shape[1] < 1:
            raise ValueError(f"Found array with 0 feature(s) (shape={A.shape}) while a minimum of "
                             f"1 is required.")
        if not np.isfinite(A).all():
            bad = "NaN" if np.isnan(A).any() else "infinity"
            r, c = np.argwhere(~np.isfinite(A))[0]
            raise ValueError(f"Input X contains {bad} (row {r}, column {c}): every coordinate must "
                             f"be finite")
        return A

    @staticmethod
    def _truth(truth, n):
        t = np.asarray(truth)
        if t.ndim != 1 or t.shape[0] != n:
            raise ValueError(f"truth: expected {n} labels (one per row of X), got an array of "
                             f"shape {t.shape}")
        _, codes = np.unique(t, return_inverse=True)
        return codes.astype(np.int64) + 1  # the library's ids: 1..K without gaps

    def _sampling(self, k, m, n, q):
        """(eta, beta): the parameters, or Theorem 1's certified ceilings where they are None."""
        eta, beta = self.eta, self.beta
        if eta is None or beta is None:
            if q is None:
                raise _ssac.ParameterError(
                    "eta = None and beta = None need the oracle's q (Theorem 1); this oracle has "
                    "none: give eta and beta")
            b = _ssac.bounds(k=k, m=m, n=n, delta=_decimal("delta", self.delta),
                             gamma=_decimal("gamma", self.gamma), q=_decimal("q", q))
            if eta is None:
                # The remark after Theorem 1: a perfect oracle (q = 1) needs eta_perfect.
                eta = b["eta_perfect" if float(q) == 1.0 else "eta_random"]["ceil"]
            if beta is None:
                beta = b["beta_random"]["ceil"]
        return eta, beta

    def _k(self, truth_codes):
        if self.n_clusters is not None:
            return self.n_clusters
        if truth_codes is None:
            raise _ssac.ParameterError("n_clusters = None is the number of a simulated oracle's "
                                       "clusters; with this oracle give n_clusters")
        return int(truth_codes.max())

    def fit(self, X, y=None, oracle=None):
        """Runs SSAC on the rows of X, asking `oracle` (see ssac.oracles); returns self. Without an
        oracle, y is the truth of a perfect oracle (oracles.Perfect(y)), as scikit-learn's checks
        call fit(X, y); with one, y is not read. A refit replaces every fitted attribute."""
        for name in _FITTED:
            self.__dict__.pop(name, None)
        A = self._validate_X(X)
        n, m = A.shape
        if oracle is None:
            if y is None:
                raise TypeError("fit needs an oracle: fit(X, oracle=ssac.oracles.Perfect(truth)), "
                                "another of ssac.oracles, an object with query(i, j) or a callable")
            oracle = oracles.Perfect(y)
        seed = self._seed()
        common = dict(search=self.search, algorithm=self.algorithm, semantics=self.semantics,
                      rules=list(self.rules), seed=seed)
        if isinstance(oracle, oracles._Simulated):
            codes = self._truth(oracle.truth, n)
            k = self._k(codes)
            eta, beta = self._sampling(k, m, n, getattr(oracle, "q", None))
            r = _ssac.cluster(A, codes, k=k, eta=eta, beta=beta, budget=oracle.budget,
                              **oracle._cluster_args(), **common)
        elif isinstance(oracle, oracles.Console):
            k = self._k(None)
            eta, beta = self._sampling(k, m, n, None)
            r = self._fit_console(A, oracle, k, eta, beta, common)
        else:
            k = self._k(None)
            eta, beta = self._sampling(k, m, n, getattr(oracle, "q", None))
            r = _ssac.cluster(A, None, k=k, eta=eta, beta=beta, oracle=oracles._answerer(oracle),
                              stop_on=oracles.MaximumQueriesExceeded, **common)
        self._set_fitted(r, A, k, eta, beta, seed)
        return self

    def _fit_console(self, A, console, k, eta, beta, common):
        session = _ssac._Session(A, k=k, eta=eta, beta=beta, log=console._read_log(),
                                 log_name="" if console.answers is None else str(console.answers), **common)
        reason = console._run(session, A)
        if reason is None:
            return session.result()
        # The person stopped: the run replayed from the answers given, up to the first question
        # not answered, as the session replays it.
        log = "\n".join(session.log)
        r = _ssac.cluster(A, None, k=k, eta=eta, beta=beta,
                          oracle=oracles._log_replay(log, A.shape[0]), stop_on=oracles._Pending,
                          **common)
        r["status"] = r["status"].split(": the oracle raised")[0] + ": " + reason
        return r

    def _set_fitted(self, r, A, k, eta, beta, seed):
        labels = np.asarray(r["labels"], dtype=np.int64)
        self.labels_ = labels - 1  # clusters 0..k-1 in the order discovered; -1 unassigned
        centers = np.full((k, A.shape[1]), np.nan)
        for t, c in r["centers"].items():
            centers[t - 1] = c
        self.cluster_centers_ = centers
        self.queries_ = r["queries"]
        self.n_queries_ = len(r["queries"])
        self.status_ = r["status"]
        self.trace_ = r["trace"]
        self.iterations_ = r["iterations"]
        self.n_features_in_ = A.shape[1]
        self.eta_, self.beta_, self.seed_ = eta, beta, seed
        ml, cl, seen = [], [], set()
        for q in r["queries"]:
            pair = (min(q["x"], q["y"]), max(q["x"], q["y"]))
            if pair in seen or q["answer"] == "not-sure" or pair[0] == pair[1]:
                continue
            seen.add(pair)
            (ml if q["answer"] == "yes" else cl).append(pair)
        self.must_link_, self.cannot_link_ = ml, cl

    def fit_predict(self, X, y=None, oracle=None):
        """fit(X, y, oracle).labels_"""
        return self.fit(X, y, oracle=oracle).labels_

    def constraints(self, closure=False):
        """(must_link, cannot_link): the pairs of the definite answers, in the form
        PCKMeans().fit(X, ml=..., cl=...) of active-semi-supervised-clustering takes. With
        closure=True, their transitive closure (transitive_closure)."""
        ml, cl = self.must_link_, self.cannot_link_
        if closure:
            return transitive_closure(ml, cl, len(self.labels_))
        return list(ml), list(cl)


def transitive_closure(ml, cl, n):
    """The constraints that follow from must-link pairs `ml` and cannot-link pairs `cl` on n
    points: every pair inside a connected component of ml must link, every pair across two
    components joined by a cl pair cannot. Raises ValueError when a cl pair lies inside a
    component (the answers contradict each other; a simulated oracle never gives such answers)."""
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in ml:
        parent[find(a)] = find(b)
    members = {}
    for a in sorted({x for p in list(ml) + list(cl) for x in p}):
        members.setdefault(find(a), []).append(a)
    ml_out = [(a, b) for ms in members.values() for i, a in enumerate(ms) for b in ms[i + 1:]]
    cl_out = set()
    for a, b in cl:
        ra, rb = find(a), find(b)
        if ra == rb:
            raise ValueError(f"cannot-link ({a}, {b}) joins two points that must link")
        for x in members[ra]:
            for y in members[rb]:
                cl_out.add((min(x, y), max(x, y)))
    return sorted(ml_out), sorted(cl_out)
