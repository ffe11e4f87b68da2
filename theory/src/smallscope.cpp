// ssac/theory/smallscope.hpp. proofs-notes/smallscope.md states the method and what each step
// reads the paper as.
#include "ssac/theory/smallscope.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "ssac/error.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ranges.hpp"
#include "ssac/workers.hpp"

namespace ssac::theory::smallscope {

namespace {

using Int = boost::multiprecision::cpp_int;
using Point = std::vector<int>;

// (points, labels) with rows sorted lexicographically and labels renamed by first appearance.
struct Form {
  std::vector<Point> points;
  std::vector<int> labels;
  bool operator<(const Form& o) const {
    return std::tie(points, labels) < std::tie(o.points, o.labels);
  }
  bool operator==(const Form& o) const = default;
};

Form normalise(std::vector<Point> pts, const std::vector<int>& labels) {
  const std::size_t n = pts.size(), m = pts.empty() ? 0 : pts[0].size();
  for (std::size_t d = 0; d < m; ++d) {
    int lo = pts[0][d];
    for (const Point& p : pts)
      lo = std::min(lo, p[d]);
    for (Point& p : pts)
      p[d] -= lo;
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return pts[a] < pts[b]; });
  Form f;
  std::map<int, int> rename;
  for (std::size_t i : order) {
    f.points.push_back(pts[i]);
    auto [it, fresh] = rename.emplace(labels[i], static_cast<int>(rename.size()) + 1);
    f.labels.push_back(it->second);
  }
  return f;
}

// The symmetries of the grid that keep it (after translating back to the origin): the reflection
// for m = 1; the eight of the square (reflections, quarter turns, the axis swap) for m = 2.
Form canonical(const Form& f, int m) {
  Form best = f;
  const int transforms = m == 1 ? 2 : 8;
  for (int t = 1; t < transforms; ++t) {
    std::vector<Point> pts = f.points;
    for (Point& p : pts) {
      if (m == 1) {
        p[0] = -p[0];
      } else {
        int x = p[0], y = p[1];
        if (t & 4) std::swap(x, y);
        if (t & 1) x = -x;
        if (t & 2) y = -y;
        p = {x, y};
      }
    }
    Form g = normalise(std::move(pts), f.labels);
    if (g < best) best = std::move(g);
  }
  return best;
}

// Every labelling of n rows with at most max_k labels, as restricted growth strings (label i+1
// first appears after labels 1..i): one per partition of the rows.
void labellings(std::size_t n, int max_k, std::vector<int>& cur, int used,
                std::vector<std::vector<int>>& out) {
  if (cur.size() == n) {
    out.push_back(cur);
    return;
  }
  for (int l = 1; l <= std::min(used + 1, max_k); ++l) {
    cur.push_back(l);
    labellings(n, max_k, cur, std::max(used, l), out);
    cur.pop_back();
  }
}

// Subsets of `cells` of size n, in lexicographic order of their index sets.
void subsets(const std::vector<Point>& cells, std::size_t n, std::size_t from,
             std::vector<Point>& cur, std::vector<std::vector<Point>>& out) {
  if (cur.size() == n) {
    out.push_back(cur);
    return;
  }
  for (std::size_t i = from; i + (n - cur.size()) <= cells.size(); ++i) {
    cur.push_back(cells[i]);
    subsets(cells, n, i + 1, cur, out);
    cur.pop_back();
  }
}

Rational sq_dist(const Point& x, const std::vector<Rational>& mu) {
  Rational s = 0;
  for (std::size_t d = 0; d < x.size(); ++d) {
    const Rational t = Rational(x[d]) - mu[d];
    s += t * t;
  }
  return s;
}

Rational rational_of(const Decimal& d) {
  const long long e = d.exponent();
  const Int scale = boost::multiprecision::pow(Int(10), static_cast<unsigned>(e < 0 ? -e : e));
  Rational q = e < 0 ? Rational(d.coefficient(), scale) : Rational(d.coefficient() * scale);
  return d.negative() ? Rational(-q) : q;
}

std::string fraction_sqrt(const Rational& x) {
  return "sqrt(" + fraction_string(x) + ")";
}

// Decimal N * 10^-d from its digits.
Decimal decimal_scaled(const Int& N, int d) {
  std::string s = N.str();
  while (s.size() <= static_cast<std::size_t>(d))
    s = "0" + s;
  s.insert(s.size() - static_cast<std::size_t>(d), ".");
  return Decimal(s);
}

// q = 1 - x^(1/b), rounded up to 3 decimals; empty when that is not in (0, 1).
std::optional<Decimal> threshold_q(long double x, int b) {
  if (!(x > 0) || !(x < 1)) return std::nullopt;
  const long double q = 1.0L - std::pow(x, 1.0L / static_cast<long double>(b));
  const long double up = std::ceil(q * 1000.0L - 1e-9L);
  if (!(up >= 1) || !(up <= 999)) return std::nullopt;
  return decimal_scaled(Int(static_cast<long long>(up)), 3);
}

}  // namespace

int Instance::clusters() const {
  return labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
}

const char* to_string(Claim c) {
  return c == Claim::theorem1 ? "theorem1" : "appendix-c";
}
std::optional<Claim> parse_claim(std::string_view s) {
  if (s == "theorem1") return Claim::theorem1;
  if (s == "appendix-c") return Claim::appendix_c;
  return std::nullopt;
}
Search search_of(Claim c) {
  // Theorem 1 is stated for Algorithm 1 with Algorithm 2; Appendix C, claim 1, for Algorithm 4.
  return c == Claim::theorem1 ? Search::random : Search::unified;
}

const char* to_string(BetaKind b) {
  switch (b) {
    case BetaKind::paper:
      return "paper";
    case BetaKind::union_bound:
      return "union";
    case BetaKind::union_minus_one:
      return "union-minus-one";
    case BetaKind::paper_log2:
      return "paper-log2";
  }
  return "?";
}
std::optional<BetaKind> parse_beta_kind(std::string_view s) {
  for (BetaKind b :
       {BetaKind::paper, BetaKind::union_bound, BetaKind::union_minus_one, BetaKind::paper_log2})
    if (s == to_string(b)) return b;
  return std::nullopt;
}

const char* to_string(Orders o) {
  return o == Orders::lex ? "lex" : "all";
}
std::optional<Orders> parse_orders(std::string_view s) {
  if (s == "lex") return Orders::lex;
  if (s == "all") return Orders::all;
  return std::nullopt;
}

Instance reordered(const Instance& in, const std::vector<std::size_t>& order) {
  if (order.empty()) return in;
  Instance out{in.m, {}, {}};
  for (std::size_t i : order) {
    out.points.push_back(in.points[i]);
    out.labels.push_back(in.labels[i]);
  }
  return out;
}

Instance Report::instance_of(const Check& c) const {
  return reordered(instances[c.instance], c.order);
}

std::vector<std::vector<std::size_t>> distinct_orders(
    std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& reads) {
  std::vector<std::vector<std::size_t>> out;
  std::set<std::vector<bool>> seen;
  std::vector<std::size_t> order(n), position(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  do {  // lexicographic order of permutations: the identity first
    for (std::size_t i = 0; i < n; ++i)
      position[order[i]] = i;
    std::vector<bool> signature;
    for (const auto& [a, b] : reads)
      signature.push_back(position[a] < position[b]);
    if (seen.insert(signature).second) out.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
  return out;
}

const std::vector<std::string>& rule_names() {
  static const std::vector<std::string> names = {
      "paper", "self-pairs=off", "anchor=lowest-labelled-row", "anchor=random-labelled-row",
      "anchor=random-known-row"};
  return names;
}

Profile rule_profile(const std::string& name) {
  const auto& names = rule_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names)
      list += (list.empty() ? "" : ", ") + n;
    throw ParameterError("--rule: '" + name + "' is not one of " + list);
  }
  Profile p = paper_profile();
  p.rows.reset();
  if (name != "paper") set_rule_given_rows(p, name);
  return p;
}

std::vector<Instance> enumerate(const Grid& g, std::size_t* enumerated) {
  std::vector<Instance> out;
  std::size_t count = 0;
  for (int m : g.dims) {
    const int side = m == 1 ? g.side1 : g.side2;
    std::vector<Point> cells;
    if (m == 1) {
      for (int x = 0; x < side; ++x)
        cells.push_back({x});
    } else {
      for (int x = 0; x < side; ++x)
        for (int y = 0; y < side; ++y)
          cells.push_back({x, y});
    }
    for (int n = g.min_n; n <= g.max_n; ++n) {
      std::vector<std::vector<Point>> sets;
      std::vector<Point> cur;
      subsets(cells, static_cast<std::size_t>(n), 0, cur, sets);
      std::vector<std::vector<int>> labs;
      std::vector<int> lc;
      labellings(static_cast<std::size_t>(n), g.max_k, lc, 0, labs);
      for (const auto& s : sets) {
        // Translation: one representative per translate, the one touching both axes.
        bool touches = true;
        for (int d = 0; d < m; ++d) {
          int lo = s[0][d];
          for (const Point& p : s)
            lo = std::min(lo, p[d]);
          touches = touches && lo == 0;
        }
        if (!touches) continue;
        // Scaling: a set whose coordinates share a factor g > 1 is a copy of the one divided by g
        // (every comparison the run makes is between distances, which scale by g).
        int common = 0;
        for (const Point& p : s)
          for (int v : p)
            common = std::gcd(common, v);
        const bool reduced = common == 1;
        for (const auto& l : labs) {
          ++count;
          if (!reduced) continue;
          Form f{s, l};  // s is sorted (cells are in lexicographic order), l a growth string
          if (!(canonical(f, m) == f)) continue;
          out.push_back({m, f.points, f.labels});
        }
      }
    }
  }
  if (enumerated) *enumerated = count;
  return out;
}

std::string hypotheses(const Instance& in, std::optional<Rational>* margin2) {
  const int K = in.clusters();
  const std::size_t n = in.n(), m = static_cast<std::size_t>(in.m);
  std::vector<std::vector<Rational>> mu(K, std::vector<Rational>(m, Rational(0)));
  std::vector<int> size(K, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int c = in.labels[i] - 1;
    ++size[c];
    for (std::size_t d = 0; d < m; ++d)
      mu[c][d] += in.points[i][d];
  }
  for (int c = 0; c < K; ++c)
    for (std::size_t d = 0; d < m; ++d)
      mu[c][d] /= size[c];
  // Definition 1 with the means as centres (Section 2.1): every point strictly nearer its own
  // cluster's mean than any other's.
  for (std::size_t i = 0; i < n; ++i) {
    const int c = in.labels[i] - 1;
    const Rational own = sq_dist(in.points[i], mu[c]);
    for (int j = 0; j < K; ++j)
      if (j != c && !(own < sq_dist(in.points[i], mu[j])))
        return "Definition 1 (row " + std::to_string(i + 1) + " not strictly nearest its mean)";
  }
  // Definition 2: gamma d(x, mu_i) < d(y, mu_i) for x in C_i, y outside; the supremum of such
  // gamma is min_i (nearest outsider / radius), compared here through squares.
  std::optional<Rational> g2;
  for (int c = 0; c < K; ++c) {
    Rational r2 = 0;
    std::optional<Rational> o2;
    for (std::size_t i = 0; i < n; ++i) {
      const Rational d2 = sq_dist(in.points[i], mu[c]);
      if (in.labels[i] - 1 == c)
        r2 = std::max(r2, d2);
      else if (!o2 || d2 < *o2)
        o2 = d2;
    }
    // A cluster of one point (radius 0) or no outsider (K = 1) constrains no gamma.
    if (!o2 || r2 == 0) continue;
    const Rational ratio = *o2 / r2;
    if (!g2 || ratio < *g2) g2 = ratio;
  }
  if (margin2) *margin2 = g2;
  if (g2 && *g2 <= 1) return "Definition 2 (margin " + fraction_sqrt(*g2) + " <= 1)";
  return "";
}

Decimal gamma_below(const std::optional<Rational>& margin2) {
  if (!margin2) return Decimal("100");
  for (int d = 2;; ++d) {
    const Int scale = boost::multiprecision::pow(Int(10), static_cast<unsigned>(d));
    const Rational scaled = *margin2 * Rational(scale * scale);
    Int N = boost::multiprecision::sqrt(
        Int(boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled)));
    if (Rational(N * N) == scaled) N -= 1;  // the margin itself is N / 10^d: one step below
    if (N > scale) return decimal_scaled(N, d);
  }
}

std::string instance_csv(const Instance& in) {
  std::string s = in.m == 1 ? "x,label\n" : "x,y,label\n";
  for (std::size_t i = 0; i < in.n(); ++i) {
    for (int v : in.points[i])
      s += std::to_string(v) + ",";
    s += std::to_string(in.labels[i]) + "\n";
  }
  return s;
}

namespace {

// eta as a double whose r = ceil(k eta) (Params::sample_size, exactly) is the certified r: the
// exact law depends on eta only through r.
double eta_for(int k, std::uint64_t r) {
  Params P;
  P.k = k;
  P.eta = static_cast<double>(r) / k;
  while (P.sample_size() > r)
    P.eta = std::nextafter(P.eta, 0.0);
  while (P.sample_size() < r)
    P.eta = std::nextafter(P.eta, 1e300);
  return P.eta;
}

}  // namespace

std::string reproduce_command(const Report& rep, const Check& c, const std::string& file) {
  const Instance in = rep.instance_of(c);
  std::string csv = instance_csv(in), esc;
  for (char ch : csv)
    esc += ch == '\n' ? std::string("\\n") : std::string(1, ch);
  const std::string& rule = rep.options.rules[c.rule];
  return "printf '" + esc + "' > " + file + " && ssac exact " + file + " --k " +
         std::to_string(in.clusters()) + " --oracle random --q " + c.q.str() + " --eta " +
         format_double(eta_for(in.clusters(), c.r)) + " --beta " + std::to_string(c.beta) +
         " --search " + to_string(search_of(c.claim)) +
         (rule == "paper" ? std::string() : " --rule " + rule);
}

Report sweep(const Options& options) {
  Report rep;
  rep.options = options;
  const Grid& g = options.grid;
  if (g.min_n < 2) throw_out_of_range("min-n", static_cast<long long>(g.min_n), "[2, max-n]");
  if (g.max_n < g.min_n) throw_out_of_range("max-n", static_cast<long long>(g.max_n), "[min-n, 8]");
  if (g.max_n > 8) throw_out_of_range("max-n", static_cast<long long>(g.max_n), "[min-n, 8]");
  if (g.max_k < 1 || g.max_k > 3)
    throw_out_of_range("max-k", static_cast<long long>(g.max_k), "[1, 3]");
  for (int m : g.dims)
    if (m != 1 && m != 2) throw_out_of_range("dims", static_cast<long long>(m), "{1, 2}");
  if (g.side1 < 2 || g.side1 > 12)
    throw_out_of_range("side1", static_cast<long long>(g.side1), "[2, 12]");
  if (g.side2 < 2 || g.side2 > 4)
    throw_out_of_range("side2", static_cast<long long>(g.side2), "[2, 4]");
  if (g.threshold_levels < 0 || g.threshold_levels > 10)
    throw_out_of_range("threshold-levels", static_cast<long long>(g.threshold_levels), "[0, 10]");
  for (const Decimal& q : g.q)
    if (!(q > Decimal(0.0)) || !(q < Decimal(1.0)))
      throw ParameterError("--q: " + q.str() + " is outside (0, 1)");
  for (const Decimal& d : g.delta)
    check_delta(d);
  // The reduction of row orders needs each row's distance independent of its place in S_i, which
  // ssac::distances gives below 8 rows (a block of 8 takes another formula).
  if (options.orders == Orders::all && g.max_n > 7)
    throw ParameterError("--orders all: --max-n = " + std::to_string(g.max_n) +
                         " is outside [min-n, 7] (use --orders lex)");
  std::vector<Profile> profiles;
  for (const auto& r : options.rules)
    profiles.push_back(rule_profile(r));

  rep.instances = enumerate(g, &rep.enumerated);
  std::map<std::tuple<std::size_t, std::string, std::uint64_t, std::uint64_t, int, std::size_t>,
           std::size_t>
      run_index;
  for (std::size_t ii = 0; ii < rep.instances.size(); ++ii) {
    const Instance& in = rep.instances[ii];
    std::optional<Rational> margin2;
    const std::string why = hypotheses(in, &margin2);
    rep.instance_skip.push_back(why);
    rep.margin.push_back(margin2 ? fraction_sqrt(*margin2) : "inf");
    if (!why.empty()) {
      rep.gamma.emplace_back();
      continue;
    }
    const Decimal gamma = gamma_below(margin2);
    rep.gamma.emplace_back(gamma);
    const long long k = in.clusters(), n = static_cast<long long>(in.n());
    for (const Decimal& delta : g.delta) {
      // The q's: the fixed ones and each beta's thresholds for this (k, n, delta).
      std::set<std::string> seen;
      std::vector<Decimal> qs;
      auto add = [&](const Decimal& q) {
        if (seen.insert(q.str()).second) qs.push_back(q);
      };
      for (const Decimal& q : g.q)
        add(q);
      const long double dd = std::stold(delta.str());
      for (BetaKind b : options.betas) {
        const long double L = b == BetaKind::paper ? std::log(static_cast<long double>(n))
                              : b == BetaKind::paper_log2
                                  ? std::log2(static_cast<long double>(n))
                                  : static_cast<long double>(search_steps(n));
        for (int lvl = 1; lvl <= g.threshold_levels; ++lvl)
          if (auto q = threshold_q(dd / (2.0L * k * L), lvl)) add(*q);
      }
      std::sort(qs.begin(), qs.end(), [](const Decimal& a, const Decimal& b) { return a < b; });
      for (const Decimal& q : qs) {
        const Inputs inputs{k, in.m, n, delta, gamma, q};
        const Certified eta = certified_eta_random(inputs);
        const Certified r = certified_sample_size_random(inputs);
        for (Claim claim : options.claims) {
          for (BetaKind bk : options.betas) {
            const Certified beta = bk == BetaKind::paper        ? certified_beta_random(inputs)
                                   : bk == BetaKind::paper_log2 ? certified_beta_log2(inputs)
                                                                : certified_beta_union(inputs);
            if (!r.ceil || !beta.ceil) {
              rep.uncertified += options.rules.size();
              continue;
            }
            BigInt b = *beta.ceil;
            if (bk == BetaKind::union_minus_one) b = b > 1 ? b - 1 : BigInt(1);
            for (std::size_t rule = 0; rule < options.rules.size(); ++rule) {
              Check c;
              c.instance = ii;
              c.q = q;
              c.delta = delta;
              c.gamma = gamma;
              c.claim = claim;
              c.beta_kind = bk;
              c.rule = rule;
              c.eta = eta.value;
              c.beta_value = beta.value;
              // Beyond 2^63 nothing is within the exact engine's reach; kept as the cap.
              const BigInt cap = BigInt(1) << 62;
              c.r = static_cast<std::uint64_t>(*r.ceil < cap ? *r.ceil : cap);
              c.beta = static_cast<std::uint64_t>(b < cap ? b : cap);
              const auto key = std::make_tuple(ii, q.str(), c.r, c.beta,
                                               static_cast<int>(search_of(claim)), rule);
              auto [it, fresh] = run_index.emplace(key, rep.runs.size());
              if (fresh) {
                Run run;
                run.instance = ii;
                run.q = q;
                run.r = c.r;
                run.beta = c.beta;
                run.search = search_of(claim);
                run.rule = rule;
                rep.runs.push_back(run);
              }
              c.run = it->second;
              rep.checks.push_back(c);
            }
          }
        }
      }
    }
  }
  auto check_max_runs = [&] {
    if (rep.runs.size() > options.max_runs)
      throw ParameterError("--max-runs = " + std::to_string(options.max_runs) +
                           " is too small: this sweep needs " + std::to_string(rep.runs.size()) +
                           " distinct exact runs (narrow the grid, or raise it)");
  };
  check_max_runs();

  // The exact runs, in parallel: each worker takes the next run from a shared counter and writes
  // only its own slot, so the report does not depend on the number of threads.
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  auto work = [&] {
    for (;;) {
      if (stop) return;
      const std::size_t i = next++;
      if (i >= rep.runs.size()) return;
      Run& run = rep.runs[i];
      const Instance& in = rep.instances[run.instance];
      const std::size_t n = in.n();
      const Instance ordered = reordered(in, run.order);
      Matrix X(static_cast<Eigen::Index>(n), in.m);
      for (std::size_t row = 0; row < n; ++row)
        for (int d = 0; d < in.m; ++d)
          X(static_cast<Eigen::Index>(row), d) = ordered.points[row][d];
      // Phase 1 of iteration 1 alone: n^r draw sequences under the paths engine, each one
      // re-execution at least; the states engine's estimate (exact_phase1_cost) under it.
      std::vector<std::size_t> rows(n);
      for (std::size_t row = 0; row < n; ++row)
        rows[row] = row;
      if (exact_phase1_cost(options.engine, X, rows, run.r,
                            static_cast<long double>(options.max_branches)) >
          static_cast<long double>(options.max_branches)) {
        run.beyond = Run::Beyond::reexecutions;
        continue;
      }
      if (run.beta > static_cast<std::uint64_t>(range::kMaxBeta)) {
        run.beyond = Run::Beyond::beta;
        continue;
      }
      ExactOracle eo;
      eo.spec.kind = OracleKind::random;
      eo.q = rational_of(run.q);
      eo.spec.q = eo.q.convert_to<double>();
      Params P;
      P.k = in.clusters();
      P.eta = eta_for(P.k, run.r);
      P.beta = static_cast<int>(run.beta);
      P.search = run.search;
      P.rules = profiles[run.rule].rules;
      P.elimination = profiles[run.rule].elimination;
      P.oracle_clusters = P.k;
      ExactOptions opt;
      opt.max_branches = options.max_branches;
      opt.max_states = options.max_states;
      opt.engine = options.engine;
      try {
        const ExactResult res = exact_distribution(X, ordered.labels, eo, P, opt);
        if (res.total != 1) throw std::logic_error("the exact probabilities do not sum to 1");
        run.p_not_recovered = 1 - res.p_exact_recovery;
        run.p_failure = res.p_failure;
        run.branches = res.branches;
        run.merged = res.merged;
        run.by_counts = res.phase1_by_counts;
        run.order_reads = res.tied_pairs;
        // Definition 4's anchor under lowest-labelled-row: the lowest row of a cluster's known
        // rows, any two of which may be compared.
        if (options.rules[run.rule] == "anchor=lowest-labelled-row")
          for (std::size_t a = 0; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b)
              if (ordered.labels[a] == ordered.labels[b]) run.order_reads.emplace_back(a, b);
        std::sort(run.order_reads.begin(), run.order_reads.end());
        run.order_reads.erase(std::unique(run.order_reads.begin(), run.order_reads.end()),
                              run.order_reads.end());
        run.done = true;
      } catch (const ParameterError& e) {
        // Only the budget is a skip; any other parameter error is a defect of the sweep.
        const std::string what = e.what();
        if (what.find("--max-branches") != std::string::npos)
          run.beyond = Run::Beyond::reexecutions;
        else if (what.find("--max-states") != std::string::npos)
          run.beyond = Run::Beyond::states;
        else
          throw;
      }
    }
  };
  run_workers(options.threads, work, [&] { stop = true; });
  rep.lex_runs = rep.runs.size();
  if (options.orders == Orders::lex) return rep;

  // Every other row order (proofs-notes/smallscope.md, "Row orders"): the reference reads row
  // numbers only through the pairs in order_reads, so one order per way of ordering those pairs
  // stands for all (the identity, i.e. the run above, for those ordering them as it does). A run
  // beyond reach has no known order_reads; its orders stay unrun with it (counted beyond reach).
  std::vector<std::vector<std::size_t>> extra(rep.lex_runs);
  for (std::size_t i = 0; i < rep.lex_runs; ++i) {
    if (!rep.runs[i].done || rep.runs[i].order_reads.empty()) continue;
    ++rep.order_sensitive_runs;
    const auto orders =
        distinct_orders(rep.instances[rep.runs[i].instance].n(), rep.runs[i].order_reads);
    for (std::size_t o = 1; o < orders.size(); ++o) {
      Run run = rep.runs[i];
      run.done = false;
      run.order = orders[o];
      run.lex_run = i;
      run.order_reads.clear();
      run.p_not_recovered = 0;
      run.p_failure = 0;
      run.branches = 0;
      extra[i].push_back(rep.runs.size());
      rep.runs.push_back(std::move(run));
    }
  }
  check_max_runs();
  const std::size_t lex_checks = rep.checks.size();
  for (std::size_t c = 0; c < lex_checks; ++c)
    for (std::size_t ri : extra[rep.checks[c].run]) {
      Check ch = rep.checks[c];
      ch.run = ri;
      ch.order = rep.runs[ri].order;
      rep.checks.push_back(std::move(ch));
    }
  next = rep.lex_runs;
  run_workers(options.threads, work, [&] { stop = true; });
  return rep;
}

}  // namespace ssac::theory::smallscope
