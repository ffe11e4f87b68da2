// The Python module `ssac`: the reference library seen from Python. Conversions happen here and
// nowhere else: NumPy arrays (or anything numpy.asarray accepts) in, NumPy arrays and plain
// Python objects (dict, list, int, float, str) out; the library knows nothing of Python. Every
// check is the library's own (ssac/ranges.hpp, Params::check, OracleSpec::check), so a value is
// refused with the same one-line message as on the command line: ssac::ParameterError becomes
// ssac.ParameterError and ssac::DataError becomes ssac.DataError, both subclasses of ValueError.
//
// NumPy is imported only when an array crosses the boundary, so `import ssac`, ssac.bounds and
// ssac.validate(path, csv_path) work on an interpreter without it.
//
// About 550 lines, above the project's 400: the module's conversions and every function but the
// run itself (python/run.cpp: ssac.cluster, the estimator's fits and the console session) are kept
// in this one file (as in pybind11's cmake_example), so that each can be read in one place.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "convert.hpp"
#include "run.hpp"
#include "ssac/choice_law.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/generator.hpp"
#include "ssac/metrics.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_check.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/rules.hpp"
#include "ssac/ssac.hpp"
#include "ssac/theory/bounds.hpp"
#include "ssac/trace.hpp"
#include "trace_writer.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

// The conversions of python/convert.hpp.
namespace ssac::python {

using ssac::DataError;

// ---- NumPy in ----

// Arrays need NumPy; say so, and where Debian has it, instead of a bare "No module named 'numpy'".
void need_numpy(const char* function) {
  try {
    py::module_::import("numpy");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    const auto exe = py::module_::import("sys").attr("executable").cast<std::string>();
    throw py::import_error(std::string("ssac.") + function +
                           " takes or returns NumPy arrays, and this interpreter (" + exe +
                           ") has no numpy; Debian's /usr/bin/python3 has it (python3-numpy)");
  }
}

// Points: a 2-D array of n >= 1 rows and m >= 1 finite coordinates (the CSV reader's rules).
ssac::Matrix to_points(const py::object& obj) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a) throw DataError("X: not convertible to an array of floats");
  if (a.ndim() != 2 || a.shape(0) < 1 || a.shape(1) < 1)
    throw DataError("X: expected a 2-D array with at least one row and one column, got " +
                    std::to_string(a.ndim()) + " dimension(s)");
  ssac::Matrix X(a.shape(0), a.shape(1));
  const double* p = a.data();
  for (Eigen::Index i = 0; i < X.size(); ++i) {
    if (!std::isfinite(p[i]))
      throw DataError("X: row " + std::to_string(i / X.cols()) + ", column " +
                      std::to_string(i % X.cols()) + " is not finite");
    X.data()[i] = p[i];
  }
  return X;
}

// Labels: n integers 1..K with every id in 1..K present, as in a CSV file's `label` column.
std::vector<int> to_labels(const py::object& obj, std::size_t n) {
  const py::array a = py::array::ensure(obj);
  if (!a || a.ndim() != 1) throw DataError("labels: expected a 1-D array of integers");
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u')
    throw DataError("labels: expected integers, got dtype " + std::string(py::str(a.dtype())));
  if (static_cast<std::size_t>(a.shape(0)) != n)
    throw DataError("labels: " + std::to_string(a.shape(0)) + " labels for " + std::to_string(n) +
                    " points");
  const auto v = py::array_t<long long, py::array::forcecast>::ensure(a);
  std::vector<int> labels(n);
  long long K = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long long l = v.at(static_cast<py::ssize_t>(i));
    if (l < 1 || l > ssac::range::kMaxLabel)
      throw DataError("labels: row " + std::to_string(i) + ": label " + std::to_string(l) +
                      " is outside 1.." + std::to_string(ssac::range::kMaxLabel));
    labels[i] = static_cast<int>(l);
    K = std::max(K, l);
  }
  std::vector<char> seen(static_cast<std::size_t>(K) + 1, 0);
  for (int l : labels)
    seen[static_cast<std::size_t>(l)] = 1;
  for (long long l = 1; l <= K; ++l)
    if (!seen[static_cast<std::size_t>(l)])
      throw DataError("labels: ids go up to " + std::to_string(K) + " but no row has label " +
                      std::to_string(l) + " (ids must be 1..K without gaps)");
  return labels;
}

// ---- out ----

py::array_t<double> to_array(const ssac::Matrix& X) {
  py::array_t<double> a({X.rows(), X.cols()});
  std::copy(X.data(), X.data() + X.size(), a.mutable_data());
  return a;
}
py::list to_list(const ssac::Vector& v) {
  py::list l;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    l.append(v[i]);
  return l;
}
py::object answer(ssac::Answer a) {
  return py::str(ssac::to_string(a));
}

static py::dict step_dict(const ssac::SearchStep& s, bool plain) {
  py::list answers;
  for (ssac::Answer a : s.sample_answers)
    answers.append(answer(a));
  py::dict d("lo"_a = s.lo, "hi"_a = s.hi, "j"_a = s.j, "row"_a = s.row);
  // As the trace's step: Q(x_1, x_j) in the weak searches, Q(z, x_j) in the plain one.
  if (plain)
    d["z_answer"] = s.z_asked ? answer(s.z_answer) : py::none();
  else
    d["x1_answer"] = s.x1_asked ? answer(s.x1_answer) : py::none();
  d["sample"] = s.sample;
  d["sample_answers"] = answers;
  d["queries"] = s.queries;
  d["decision"] = ssac::to_string(s.decision);
  return d;
}

py::dict iteration_dict(const ssac::Iteration& it, bool plain) {
  py::list steps;
  for (const auto& s : it.steps)
    steps.append(step_dict(s, plain));
  py::dict d("iteration"_a = it.index, "remaining"_a = it.remaining, "sample"_a = it.sample,
             "assignment"_a = it.assignment, "p"_a = it.p, "zp_size"_a = it.zp_size,
             "revisited"_a = it.revisited, "outcome"_a = ssac::to_string(it.outcome));
  d["center"] = it.p ? py::object(to_list(it.center)) : py::none();
  d["x1"] = it.p ? py::object(py::int_(it.x1)) : py::none();
  d["steps"] = steps;
  d["j_star"] = it.j_star;
  d["radius"] = it.radius;
  d["assigned"] = it.assigned;
  d["members"] = it.members;
  return d;
}

}  // namespace ssac::python

namespace {

using namespace ssac::python;
using ssac::DataError;
using ssac::ParameterError;

// ---- validate ----

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(path + ": cannot open for reading");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool is_path(const py::object& o) {
  return py::isinstance<py::str>(o) || py::hasattr(o, "__fspath__");
}
// A str with a line break is a trace's text (cluster()["trace"]), not a path.
bool is_text(const py::object& o) {
  return py::isinstance<py::str>(o) && o.cast<std::string>().find('\n') != std::string::npos;
}
std::string path_of(const py::object& o) {
  return py::str(py::module_::import("os").attr("fspath")(o)).cast<std::string>();
}

ssac::Matrix points_of(const py::object& data) {
  if (is_path(data)) return ssac::read_csv(path_of(data)).points;
  need_numpy("validate");
  return to_points(data);
}

// A trace is its text (a str with line breaks), a path (any other str, or os.PathLike) or an
// iterable of lines: each a str (with or without its '\n') or a dict, which is written as JSON.
std::string trace_text(const py::object& trace) {
  if (is_text(trace)) return trace.cast<std::string>();
  if (is_path(trace)) return read_file(path_of(trace));
  const py::object dumps = py::module_::import("json").attr("dumps");
  std::string text;
  for (const py::handle line : trace) {
    std::string s =
        py::isinstance<py::dict>(line) ? dumps(line).cast<std::string>() : line.cast<std::string>();
    if (s.empty() || s.back() != '\n') s += '\n';
    text += s;
  }
  return text;
}

// The points a replay runs on, from an array or a CSV path; a labelled CSV also gives the
// oracle's number of clusters, as `ssac validate --data` takes it (S2, rule 5).
ssac::Matrix replay_points(const py::object& data, ssac::ReplayOptions& options) {
  if (!is_path(data)) return points_of(data);
  ssac::Dataset d = ssac::read_csv(path_of(data));
  options.label_clusters = d.has_labels() ? d.num_labels() : 0;
  return std::move(d.points);
}

ssac::ValidationReport validate(const py::object& trace, const py::object& data,
                                const py::object& semantics,
                                const std::vector<std::string>& rules) {
  ssac::ReplayOptions options;
  options.profile =
      ssac::replay_profile(semantics.is_none() ? "" : semantics.cast<std::string>(), rules);
  const ssac::Matrix X = replay_points(data, options);
  const std::string name = !is_text(trace) && is_path(trace) ? path_of(trace) : "<trace>";
  return ssac::validate_trace(X, trace_text(trace), name, options);
}

// As `ssac validate --check-oracle`: the points and true labels from a CSV path (its `label`
// column) or from arrays; the oracle from the trace's header, else from `oracle` (and q, nu, rho).
ssac::OracleCheck check_oracle(const py::object& trace, const py::object& data,
                               const py::object& labels_in, const py::object& oracle, double q,
                               double nu, double rho, double confidence) {
  ssac::Matrix X;
  std::vector<int> labels;
  if (is_path(data)) {
    ssac::Dataset d = ssac::read_csv(path_of(data));
    if (!d.has_labels())
      throw DataError(path_of(data) +
                      ": no 'label' column; check_oracle recomputes the answers from it");
    X = std::move(d.points);
    labels = std::move(d.labels);
  } else {
    need_numpy("check_oracle");
    X = to_points(data);
    if (labels_in.is_none())
      throw ParameterError("labels: required when data is an array (the oracle answers from them)");
    labels = to_labels(labels_in, static_cast<std::size_t>(X.rows()));
  }
  std::optional<ssac::OracleSpec> fallback;
  if (!oracle.is_none()) {
    const std::string name = oracle.cast<std::string>();
    const auto kind = ssac::oracle_kind_from_string(name);
    if (!kind || *kind == ssac::OracleKind::interactive)
      throw ParameterError("oracle: '" + name +
                           "' is not one of perfect | random | local | global");
    ssac::OracleSpec spec;
    spec.kind = *kind;
    spec.q = q;
    spec.nu = nu;
    spec.rho = rho;
    spec.check();
    fallback = spec;
  }
  if (!(confidence > 0.0 && confidence < 1.0))
    ssac::throw_out_of_range("confidence", confidence, "(0, 1)");
  return ssac::check_oracle_answers(X, labels, trace_text(trace), "<trace>", fallback, confidence);
}

// As `ssac choices`: the choices of many traces on one dataset against their exact law
// (ssac/choice_law.hpp). Each trace as validate takes it; a dict of the report.
py::dict choices(const py::iterable& traces, const py::object& data, double alpha, int bins,
                 std::uint64_t seed, int grid) {
  ssac::ReplayOptions options;
  const ssac::Matrix X = replay_points(data, options);
  ssac::ChoiceLawOptions o;
  o.alpha = alpha;
  o.bins = bins;
  o.grid = grid;
  o.seed = seed;
  ssac::ChoiceLaw law(o);
  std::size_t i = 0;
  for (const py::handle t : traces) {
    const py::object trace = py::reinterpret_borrow<py::object>(t);
    const std::string name =
        !is_text(trace) && is_path(trace) ? path_of(trace) : "<trace " + std::to_string(i) + ">";
    law.add_text(X, trace_text(trace), name, options);
    ++i;
  }
  const ssac::ChoiceLawReport r = law.report();
  py::list kinds;
  for (const ssac::ChoiceKind& k : r.kinds)
    kinds.append(
        py::dict("name"_a = k.name, "law"_a = k.law, "choices"_a = k.choices, "counts"_a = k.counts,
                 "repeats"_a = k.repeats, "expected_repeats"_a = k.expected_repeats,
                 "not_sure"_a = k.not_sure, "expected_not_sure"_a = k.expected_not_sure,
                 "pairs"_a = k.pairs, "hits"_a = k.hits, "expected_hits"_a = k.expected_hits,
                 "p_bins"_a = k.p_bins, "ks_d"_a = k.ks_d, "p_ks"_a = k.p_ks, "p"_a = k.p));
  return py::dict("traces"_a = r.traces, "passes"_a = r.passes(), "kinds"_a = kinds,
                  "nonconforming"_a = r.nonconforming,
                  "answers_not_checked"_a = r.answers_not_checked, "impossible"_a = r.impossible);
}

// ---- bounds ----

// A decimal parameter as typed: a str as is, a float as its shortest repr (0.05 is "0.05"), an int
// as its digits.
ssac::theory::Decimal decimal_of(const char* name, const py::object& v) {
  if (py::isinstance<py::bool_>(v) ||
      !(py::isinstance<py::str>(v) || py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)))
    throw ParameterError(std::string(name) + ": expected a decimal (str, float or int), got " +
                         std::string(py::repr(v)));
  const std::string text =
      py::isinstance<py::str>(v) ? v.cast<std::string>() : py::repr(v).cast<std::string>();
  const auto parsed = ssac::theory::Decimal::parse(text);
  if (!parsed.value) throw ParameterError(std::string(name) + ": '" + text + "' " + parsed.error);
  return *parsed.value;
}

py::object big(const std::optional<ssac::theory::BigInt>& x) {
  return x ? py::object(py::int_(py::str(x->str()))) : py::none();
}
py::dict certified(const ssac::theory::Certified& c) {
  return py::dict("value"_a = ssac::theory::to_string(c.value, 20), "ceil"_a = big(c.ceil));
}
py::object binomial(const std::optional<ssac::theory::BinomialEta>& b) {
  if (!b) return py::none();
  return py::dict("ceil"_a = big(b->s), "tail"_a = ssac::theory::to_string(b->tail, 20),
                  "tail_prev"_a = ssac::theory::to_string(b->tail_prev, 20));
}

// The sampling numbers of `ssac bounds` for one combination, with the same names and the same
// texts as its JSON; integers are exact Python ints.
py::dict bounds(long long k, long long m, long long n, const py::object& delta,
                const py::object& gamma, const py::object& q) {
  namespace th = ssac::theory;
  const th::Inputs in{
      k, m, n, decimal_of("delta", delta), decimal_of("gamma", gamma), decimal_of("q", q)};
  th::check(in);
  return py::dict("k"_a = k, "m"_a = m, "n"_a = n, "delta"_a = in.delta.str(),
                  "gamma"_a = in.gamma.str(), "q"_a = in.q.str(),
                  "eta_perfect"_a = certified(th::certified_eta_perfect(in)),
                  "eta_random"_a = certified(th::certified_eta_random(in)),
                  "beta_random"_a = certified(th::certified_beta_random(in)),
                  "eta_perfect_pinelis"_a = certified(th::certified_eta_perfect_pinelis(in)),
                  "eta_random_pinelis"_a = certified(th::certified_eta_random_pinelis(in)),
                  "eta_random_binomial"_a = binomial(th::eta_random_binomial(in, false)),
                  "eta_random_binomial_pinelis"_a = binomial(th::eta_random_binomial(in, true)),
                  "eta_mcdiarmid"_a = certified(th::certified_eta_mcdiarmid(in)),
                  "beta_union"_a = certified(th::certified_beta_union(in)),
                  "search_steps"_a = th::search_steps(in.n));
}

}  // namespace

PYBIND11_MODULE(_ssac, mod) {
  mod.doc() =
      "ssac: the reference implementation of Semi-Supervised Active Clustering with Weak Oracles "
      "(Kim & Ghosh). NumPy arrays in, NumPy arrays and plain Python objects out.";
  mod.attr("__version__") = SSAC_VERSION_INFO;
  py::register_exception<ParameterError>(mod, "ParameterError", PyExc_ValueError);
  py::register_exception<DataError>(mod, "DataError", PyExc_ValueError);

  mod.def(
      "generate",
      [](long long n, long long m, long long k, double std, double gamma_min, double gamma_max,
         std::uint64_t seed, long long max_draws, bool shuffle, const std::string& gaussians) {
        need_numpy("generate");
        ssac::range::check_points(n);
        ssac::range::check_dimension(m);
        if (max_draws < 1) ssac::throw_out_of_range("max-draws", max_draws, "[1, inf)");
        ssac::GeneratorParams p;
        p.n = static_cast<std::size_t>(n);
        p.m = static_cast<std::size_t>(m);
        ssac::range::check_k(k, p.n);  // GeneratorParams::check's test, before k is an int
        p.k = static_cast<int>(k);
        p.sigma = std;
        p.gamma_min = gamma_min;
        p.gamma_max = gamma_max;
        p.seed = seed;
        p.max_draws = static_cast<std::uint64_t>(max_draws);
        p.shuffle = shuffle;
        p.gaussians = ssac::parse_gaussian_method("gaussians", gaussians);
        p.check();
        const ssac::Generated g = ssac::generate(p);
        return py::dict("points"_a = to_array(g.data.points),
                        "labels"_a = to_array(
                            std::vector<long long>(g.data.labels.begin(), g.data.labels.end())),
                        "gamma"_a = g.gamma, "draws"_a = g.draws);
      },
      "The synthetic data of Section 5.1 (as `ssac generate`): a dict with points (n x m), "
      "labels (1..k), gamma and draws. gaussians: 'polar' (stream version 1), 'ziggurat' (2), "
      "'polar-clusters' (3) or 'ziggurat-clusters' (4).",
      "n"_a = 1500, "m"_a = 2, "k"_a = 3, "std"_a = 1.75, "gamma_min"_a = 1.0, "gamma_max"_a = 1.1,
      "seed"_a = 0, "max_draws"_a = 100000, "shuffle"_a = false, "gaussians"_a = "polar");

  mod.def(
      "read_csv",
      [](const py::object& path) {
        need_numpy("read_csv");
        const ssac::Dataset d = ssac::read_csv(path_of(path));
        return py::make_tuple(
            to_array(d.points),
            d.has_labels()
                ? py::object(to_array(std::vector<long long>(d.labels.begin(), d.labels.end())))
                : py::none());
      },
      "Reads a data file as the command line does: (points, labels or None).", "path"_a);

  mod.def(
      "gamma",
      [](const py::object& X_in, const py::object& labels_in) {
        need_numpy("gamma");
        const ssac::Matrix X = to_points(X_in);
        const auto labels = to_labels(labels_in, static_cast<std::size_t>(X.rows()));
        const ssac::ClusterStats st = ssac::cluster_stats(X, labels);
        ssac::Matrix means(static_cast<Eigen::Index>(st.means.size()), X.cols());
        for (std::size_t i = 0; i < st.means.size(); ++i)
          means.row(static_cast<Eigen::Index>(i)) = st.means[i].transpose();
        return py::dict(
            "gamma"_a = st.gamma,
            "sizes"_a = to_array(std::vector<long long>(st.sizes.begin(), st.sizes.end())),
            "radii"_a = to_array(st.radii), "nearest_outsider"_a = to_array(st.nearest_outsider),
            "means"_a = to_array(means));
      },
      "The gamma-margin of Definition 2 (as `ssac gamma`): a dict with gamma and, per cluster, "
      "sizes, radii, nearest_outsider and means.",
      "X"_a, "labels"_a);

  ssac::python::bind_run(mod);

  py::class_<ssac::Divergence>(mod, "Divergence",
                               "The first difference between a trace and the reference's replay.")
      .def_readonly("event", &ssac::Divergence::event, "1-based event number = line number")
      .def_readonly("iteration", &ssac::Divergence::iteration)
      .def_readonly("phase", &ssac::Divergence::phase)
      .def_readonly("what", &ssac::Divergence::what)
      .def_readonly("expected", &ssac::Divergence::expected)
      .def_readonly("found", &ssac::Divergence::found)
      .def_readonly("near_tie", &ssac::Divergence::near_tie)
      .def_readonly("message", &ssac::Divergence::message)
      .def("__str__", [](const ssac::Divergence& d) { return d.message; })
      .def("__repr__",
           [](const ssac::Divergence& d) { return "<ssac.Divergence: " + d.message + ">"; });
  py::class_<ssac::ValidationReport>(mod, "ValidationResult",
                                     "What ssac.validate found; true when the trace conforms.")
      .def_readonly("conforms", &ssac::ValidationReport::conforms)
      .def_readonly("version", &ssac::ValidationReport::version,
                    "the trace's format version (1 is read with its own field names)")
      .def_readonly("events", &ssac::ValidationReport::events)
      .def_readonly("queries", &ssac::ValidationReport::queries)
      .def_readonly("divergence", &ssac::ValidationReport::divergence)
      .def_property_readonly(
          "profile",
          [](const ssac::ValidationReport& r) -> py::object {
            if (r.profile.empty()) return py::none();
            return py::str(r.profile);
          },
          "the rules replayed under when the header or semantics=/rules= chose them: "
          "'paper', 'authors-code' or 'custom rules ...'; None for the trace version's default "
          "(the paper's)")
      .def_readonly("ties", &ssac::ValidationReport::ties,
                    "exact ties in Phase 2's distance order (S6) the trace broke otherwise than by "
                    "row and the replay followed: one per tie group of one iteration")
      .def("__bool__", [](const ssac::ValidationReport& r) { return r.conforms; })
      .def("__repr__", [](const ssac::ValidationReport& r) {
        // The words of `ssac validate`'s verdict line.
        const std::string under = r.profile.empty() ? "" : " under " + r.profile;
        if (!r.conforms)
          return "<ssac.ValidationResult: does not conform" + under + ": " + r.divergence->message +
                 ">";
        const std::string ties = r.ties == 0
                                     ? ""
                                     : "; " + std::to_string(r.ties) + " exact tie" +
                                           (r.ties == 1 ? "" : "s") + " resolved as the trace did";
        return "<ssac.ValidationResult: conforms" + under + ties + " (" + std::to_string(r.events) +
               " events, " + std::to_string(r.queries) + " queries)>";
      });
  mod.def("validate", &validate,
          "Replays a trace through the reference (as `ssac validate`). `trace`: its text (a str "
          "with line breaks), a path, or an iterable of lines (str, or dict written as JSON). "
          "`data`: the points (n x m array) or "
          "a CSV path. `semantics` ('paper' or 'authors-code') and `rules` ('name=value' "
          "strings on top of it) are the profile of a trace whose header names none, as `ssac "
          "validate --semantics/--rule`. Returns a ValidationResult (conforms, events, queries, "
          "profile, ties, divergence); a trace that does not parse or is for other data raises "
          "ssac.DataError, a header naming other rules than semantics/rules "
          "ssac.ParameterError.",
          "trace"_a, "data"_a, py::kw_only(), "semantics"_a = py::none(),
          "rules"_a = std::vector<std::string>{});

  py::class_<ssac::OracleCheck>(mod, "OracleCheck",
                                "What ssac.check_oracle found; true when the answers pass.")
      .def_property_readonly("oracle", [](const ssac::OracleCheck& c) { return c.spec.describe(); })
      .def_readonly("oracle_from_header", &ssac::OracleCheck::spec_from_header)
      .def_readonly("queries", &ssac::OracleCheck::queries)
      .def_property_readonly("wrong",
                             [](const ssac::OracleCheck& c) -> py::object {
                               if (!c.wrong) return py::none();
                               return py::dict("event"_a = c.wrong->event, "x"_a = c.wrong->x,
                                               "y"_a = c.wrong->y, "expected"_a = c.wrong->expected,
                                               "found"_a = c.wrong->found, "rule"_a = c.wrong->rule,
                                               "message"_a = c.wrong->message);
                             })
      .def_readonly("trials", &ssac::OracleCheck::trials)
      .def_readonly("abstentions", &ssac::OracleCheck::abstentions)
      .def_readonly("confidence", &ssac::OracleCheck::confidence)
      .def_readonly("rate_lo", &ssac::OracleCheck::rate_lo)
      .def_readonly("rate_hi", &ssac::OracleCheck::rate_hi)
      .def_readonly("rate_consistent", &ssac::OracleCheck::rate_consistent)
      .def_property_readonly("passes", &ssac::OracleCheck::passes)
      .def_property_readonly("verdict", &ssac::OracleCheck::verdict,
                             "the verdict line `ssac validate --check-oracle` prints")
      .def("__bool__", &ssac::OracleCheck::passes);
  mod.def("check_oracle", &check_oracle,
          "Checks a trace's answers against its oracle (as `ssac validate --check-oracle`): "
          "recomputed from the true labels for perfect, local and global; for random, every "
          "definite answer truthful and the abstention rate's exact Clopper-Pearson interval at "
          "`confidence` containing 1 - q. `data`: a labelled CSV path, or points with `labels`. "
          "The oracle is the trace header's, else `oracle` with q, nu, rho.",
          "trace"_a, "data"_a, "labels"_a = py::none(), "oracle"_a = py::none(), "q"_a = 1.0,
          "nu"_a = 1.0, "rho"_a = 1.0, "confidence"_a = 0.999);

  mod.def("choices", &choices,
          "Tests the random choices recorded in many traces against their exact law (as `ssac "
          "choices`): Phase-1 draws, draws of B and random-weak abstentions, one at a time and "
          "in pairs. `traces`: an iterable of traces, each as ssac.validate takes it; `data`: "
          "the points or a CSV path. A trace that does not conform is left out of the pool and "
          "listed in nonconforming (its name and divergence), and passes is then False; one that "
          "is malformed or for other data raises ssac.DataError. "
          "Returns a dict: traces, passes, kinds (name, law, pairs, choices, counts per bin or "
          "cell, hits and expected_hits, repeats or not_sure with their expected numbers, "
          "p_bins, ks_d, p_ks, p), nonconforming, answers_not_checked, impossible.",
          "traces"_a, "data"_a, py::kw_only(), "alpha"_a = 1e-6, "bins"_a = 10, "seed"_a = 0,
          "grid"_a = 4);

  ssac::python::bind_trace_writer(mod, &points_of);

  mod.def("bounds", &bounds,
          "The sampling numbers of `ssac bounds` for one combination: a dict with the fields of "
          "its JSON (each bound's 'value' as text and 'ceil' as an exact int). delta, gamma and q "
          "are decimals as typed: a str, or a float taken as its repr.",
          py::kw_only(), "k"_a = 3, "m"_a = 2, "n"_a = 1000, "delta"_a = "0.05", "gamma"_a = "1.1",
          "q"_a = "0.9");
}
