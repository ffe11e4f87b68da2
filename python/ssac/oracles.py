"""Oracles for ssac.SSAC: who answers the weak same-cluster query Q(x, y) of Definition 3.

The simulated oracles answer from a true clustering (`truth`: one label per row, any hashable
values). They are descriptions: SSAC.fit builds the library's own oracle from them (the oracles
of `ssac cluster --oracle perfect|random|local|global`), on the fitted X and with the fit's seed,
so the answers and the random-weak oracle's stream of abstentions are those of the command line
with the same seed.

    Perfect(truth)                      never abstains
    RandomWeak(truth, q)                Definition 5: not-sure with probability 1 - q per query
    LocalDistanceWeak(truth, nu, rho)   Definition 6
    GlobalDistanceWeak(truth, rho)      Definition 7

Any other oracle is Python: an object with a method query(i, j) answering True (same cluster),
False (different clusters) or None (not sure) -- the convention of scikit-query's and
active-semi-supervised-clustering's oracles, so theirs work unchanged -- or a plain callable
f(i, j) answering the same (or "yes" / "no" / "not-sure", or 1 / -1 / 0). Budgeted(oracle,
budget) puts a budget on one that has none; Console asks a person at the terminal.

Every oracle's `budget` is the most queries it answers in one fit. The query after the last one is
not answered: the library counts a simulated oracle's queries and stops the run itself, and a
Python oracle raises MaximumQueriesExceeded (an oracle of another library raising its own
exception of that name is treated alike). The fit then ends at once and keeps what it did:
SSAC.status_ reads "stopped in iteration I after N queries: ...", queries_ holds the N answers,
labels_ the clusters of the iterations that ended.
"""
import numbers
import os
import sys

__all__ = ["MaximumQueriesExceeded", "Perfect", "RandomWeak", "LocalDistanceWeak",
           "GlobalDistanceWeak", "Budgeted", "Console"]


class MaximumQueriesExceeded(Exception):
    """An oracle's budget is spent: the query was not answered."""


def _check_budget(budget):
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, numbers.Integral) or budget < 0:
        raise ValueError(f"budget = {budget!r} is outside its admissible range: an int >= 0 or None")
    return int(budget)


class _Simulated:
    """An oracle answering from `truth`, run by the library inside SSAC.fit."""

    _kind = None

    def __init__(self, truth, budget=None):
        self.truth = truth
        self.budget = _check_budget(budget)

    def _params(self):
        return {}

    def _cluster_args(self):
        """The keyword arguments of ssac.cluster that choose this oracle."""
        return dict(oracle=self._kind, **self._params())

    def __repr__(self):
        args = "".join(f", {k}={v!r}" for k, v in self._params().items())
        budget = "" if self.budget is None else f", budget={self.budget}"
        return f"{type(self).__name__}(truth=<{len(self.truth)} labels>{args}{budget})"


class Perfect(_Simulated):
    """Never abstains: Q(x, y) is yes exactly when truth[x] == truth[y]."""

    _kind = "perfect"
    q = 1.0


class RandomWeak(_Simulated):
    """Definition 5 in its worst case: each query is not-sure with probability exactly 1 - q,
    drawn afresh, otherwise the truth (`ssac cluster --oracle random --q Q`)."""

    _kind = "random"

    def __init__(self, truth, q, budget=None):
        super().__init__(truth, budget)
        self.q = q

    def _params(self):
        return {"q": self.q}


class LocalDistanceWeak(_Simulated):
    """Definition 6, the (nu, rho) local distance-weak oracle: not-sure on the pairs its conditions
    name, from the true clusters' means and radii on the fitted X."""

    _kind = "local"

    def __init__(self, truth, nu, rho, budget=None):
        super().__init__(truth, budget)
        self.nu = nu
        self.rho = rho

    def _params(self):
        return {"nu": self.nu, "rho": self.rho}


class GlobalDistanceWeak(_Simulated):
    """Definition 7, the rho global distance-weak oracle."""

    _kind = "global"

    def __init__(self, truth, rho, budget=None):
        super().__init__(truth, budget)
        self.rho = rho

    def _params(self):
        return {"rho": self.rho}


class Budgeted:
    """`oracle` (an object with query(i, j), or a callable f(i, j)) answering at most `budget`
    queries; the next one raises MaximumQueriesExceeded. `queries` counts those answered."""

    def __init__(self, oracle, budget):
        self.oracle = oracle
        self.budget = _check_budget(budget)
        if self.budget is None:
            raise ValueError("budget = None: Budgeted needs a number of queries")
        self.queries = 0

    def query(self, i, j):
        if self.queries >= self.budget:
            raise MaximumQueriesExceeded(f"budget of {self.budget} queries spent")
        answer = _ask(self.oracle, i, j)
        self.queries += 1
        return answer

    def __repr__(self):
        return f"Budgeted({self.oracle!r}, budget={self.budget})"


def _ask(oracle, i, j):
    query = getattr(oracle, "query", None)
    return query(i, j) if callable(query) else oracle(i, j)


def _answerer(oracle):
    """The callable ssac.cluster asks for a Python oracle: query(i, j) or the callable itself, with
    an exception named MaximumQueriesExceeded from any library turned into this module's."""
    query = getattr(oracle, "query", None)
    f = query if callable(query) else oracle
    if not callable(f):
        raise TypeError(f"oracle: expected one of ssac.oracles' oracles, an object with a method "
                        f"query(i, j), or a callable f(i, j); got {oracle!r}")

    def ask(i, j):
        try:
            return f(i, j)
        except MaximumQueriesExceeded:
            raise
        except Exception as e:
            if type(e).__name__ == "MaximumQueriesExceeded":
                raise MaximumQueriesExceeded(str(e)) from e
            raise

    return ask


class Console:
    """A person at the terminal, as `ssac cluster --oracle interactive` asks one: the same session
    engine (ssac/session.hpp), the same answer file (`answers`: a path, appended to and synced as
    each answer is given, with the header line `ssac label` writes, and locked while a session
    holds it), so a session resumes from a
    file either of them wrote for the same data, parameters and seed. Answers: y (same cluster),
    n (different), ? (not sure); q or the end of input stops the fit (the answers so far stay in
    the file and on the estimator). `input` and `output` default to the terminal (input() and
    sys.stderr); `budget` is the most questions asked in one fit, answers read back from the file
    not counted."""

    def __init__(self, answers=None, *, input=None, output=None, budget=None):
        self.answers = answers
        self.input = input
        self.output = output
        self.budget = _check_budget(budget)

    def __repr__(self):
        return f"Console(answers={self.answers!r})"

    def _read_log(self):
        if self.answers is None or not os.path.exists(self.answers):
            return ""
        with open(self.answers, encoding="utf-8") as f:
            return f.read()

    def _append(self, header, line, first):
        if self.answers is None:
            return
        with open(self.answers, "a", encoding="utf-8") as f:
            if first:
                f.write(header + "\n")
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _run(self, session, X):
        """Asks until the run is over or the person stops; returns why it stopped, or None."""
        out = self.output if self.output is not None else sys.stderr
        read = self.input if self.input is not None else input
        first = session.answers == 0 and not self._read_log()
        lock = self._lock()
        try:
            return self._ask(session, X, out, read, first)
        finally:
            if lock is not None:
                lock.close()

    def _lock(self):
        """Holds an exclusive lock on the answer file for the session, as `ssac label` does, so
        that two sessions cannot append to one file."""
        if self.answers is None:
            return None
        import fcntl
        f = open(self.answers, "a", encoding="utf-8")
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise RuntimeError(f"{self.answers}: another session holds this answer file") from None
        return f

    def _ask(self, session, X, out, read, first):
        import numpy as np
        asked = 0
        while not session.finished:
            if self.budget is not None and asked >= self.budget:
                return f"the oracle's budget of {self.budget} questions is spent"
            x, y = session.question()
            p = session.progress()
            print(f"question {p['questions'] + 1}: {p['questions']} answered, at most "
                  f"{p['max_remaining']} more (Corollary 8)", file=out)
            print(f"  row {x}: {np.array2string(np.asarray(X[x]), separator=', ')}", file=out)
            print(f"  row {y}: {np.array2string(np.asarray(X[y]), separator=', ')}", file=out)
            while True:
                try:
                    typed = read("same cluster? [y/n/?, q to stop] ").strip()
                except EOFError:
                    typed = "q"
                if typed.lower() == "q":
                    return f"the person stopped after {session.answers} answers"
                try:
                    line = session.answer(typed)
                    break
                except ValueError as e:
                    print(e, file=out)
            self._append(session.header, line, first)
            first = False
            asked += 1
        return None


def _log_replay(text, n):
    """The answers of an answer file as a callable oracle replaying them the way the session does
    (in the order given, a pair asked again gets its first answer); past the end it raises
    _Pending, where a person would be asked next."""
    pairs = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        x, y, a = line.split(",")
        pairs.append(((int(x), int(y)), a.strip()))
    memo, used = {}, [0]

    def ask(i, j):
        if i == j:
            return "yes"  # S4: a point is in its own cluster; the session never shows the pair
        key = (min(i, j), max(i, j))
        if key in memo:
            return memo[key]
        if used[0] == len(pairs):
            raise _Pending()
        memo[key] = pairs[used[0]][1]
        used[0] += 1
        return memo[key]

    return ask


class _Pending(Exception):
    pass
