#include "support.hpp"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include "ssac/error.hpp"
#include "ssac/rng.hpp"

namespace ssac::props {

namespace {

// Measured gamma of the layout with the nominal centers scaled by lambda.
struct Layout {
  std::vector<Vector> offsets;  // per point, relative to its cluster's nominal center
  std::vector<int> labels;
  std::vector<double> pos;  // nominal center of cluster i is lambda * pos[i] * dir + jitter[i]
  std::vector<Vector> jitter;
  Vector dir;
};

Matrix place(const Layout& L, double lambda) {
  const auto n = static_cast<Eigen::Index>(L.offsets.size());
  const auto m = L.dir.size();
  Matrix X(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(L.labels[static_cast<std::size_t>(i)] - 1);
    X.row(i) = (lambda * L.pos[c] * L.dir + L.jitter[c] + L.offsets[static_cast<std::size_t>(i)])
                   .transpose();
  }
  return X;
}

}  // namespace

rc::Gen<Instance> gen_instance(InstanceSpec spec) {
  return rc::gen::exec([spec] {
    const int k = *rc::gen::inRange(spec.k_min, spec.k_max + 1);
    std::vector<int> dims;
    for (int d : {1, 1, 2, 2, 2, 3, 5, 10, 100})
      if (d <= spec.m_max) dims.push_back(d);
    const int m = *rc::gen::elementOf(dims);
    const int shape_id = *rc::gen::inRange(0, 4);
    // The target margin: log-uniform in the window so that gamma close to 1 is common.
    const int g_step = *rc::gen::inRange(0, 1001);
    const double gamma_target =
        spec.gamma_lo * std::pow(spec.gamma_hi / spec.gamma_lo, g_step / 1000.0);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    Rng rng(seed);

    static const char* kShapes[] = {"blob", "ring", "line", "mixed"};
    Layout L;
    L.dir = Vector::Zero(m);
    if (shape_id == 2) {
      L.dir(0) = 1.0;
    } else {
      for (int d = 0; d < m; ++d)
        L.dir(d) = rng.gaussian();
      L.dir /= L.dir.norm();
    }
    double pos = 0.0, prev_radius = 0.0;
    for (int c = 0; c < k; ++c) {
      // Sizes over two decades, radii over three: very different clusters side by side.
      const int size_cap = std::max(1, spec.size_max);
      int size = 1 + static_cast<int>(std::floor(std::pow(size_cap, rng.uniform01())));
      size = std::min(size, size_cap);
      if (c == 0) size = std::max(size, 2);  // at least one cluster with a positive radius
      const double radius = std::pow(10.0, -1.5 + 3.0 * rng.uniform01());
      const int cshape = shape_id == 3 ? static_cast<int>(rng.uniform_index(3)) : shape_id;
      pos += (c == 0 ? 0.0 : prev_radius + radius);
      prev_radius = radius;
      L.pos.push_back(pos);
      Vector jit = Vector::Zero(m);
      if (shape_id != 2)
        for (int d = 0; d < m; ++d)
          jit(d) = 0.1 * radius * rng.gaussian();
      L.jitter.push_back(jit);
      // Two perpendicular unit directions for rings (the plane of the ring).
      Vector u = Vector::Zero(m), v = Vector::Zero(m);
      u(0) = 1.0;
      if (m >= 2) v(1) = 1.0;
      for (int s = 0; s < size; ++s) {
        Vector o = Vector::Zero(m);
        if (cshape == 0) {  // blob: Gaussian, clipped to the radius
          for (int d = 0; d < m; ++d)
            o(d) = rng.gaussian();
          const double nrm = o.norm();
          if (nrm > 2.0) o *= 2.0 / nrm;
          o *= radius / 2.0;
        } else if (cshape == 1) {  // ring of points at exactly the same nominal radius
          const double th = 6.283185307179586 * rng.uniform01();
          o = radius * (std::cos(th) * u + (m >= 2 ? std::sin(th) : 0.0) * v);
          if (m == 1) o(0) = (s % 2 == 0 ? radius : -radius);
        } else {  // segment of the common line (1-D data embedded in R^m)
          o = radius * (2.0 * rng.uniform01() - 1.0) * L.dir;
        }
        L.offsets.push_back(o);
        L.labels.push_back(c + 1);
      }
    }
    // Pull the clusters together until the measured gamma is at the target (bisection on the
    // scale of the layout): the closest outsiders then sit on the margin.
    double lo = 1.0, hi = 1.0;
    Instance inst;
    inst.labels = L.labels;
    auto gamma_at = [&](double lambda) {
      return k == 1 ? std::numeric_limits<double>::infinity()
                    : cluster_stats(place(L, lambda), L.labels).gamma;
    };
    if (k > 1) {
      while (gamma_at(hi) <= gamma_target && hi < 1e6)
        hi *= 2.0;
      while (gamma_at(lo) > gamma_target && lo > 1e-6)
        lo /= 2.0;
      for (int it = 0; it < 30; ++it) {
        const double mid = std::sqrt(lo * hi);
        (gamma_at(mid) > gamma_target ? hi : lo) = mid;
      }
    }
    inst.X = place(L, hi);
    inst.stats = cluster_stats(inst.X, inst.labels);
    inst.shape = kShapes[shape_id];
    RC_PRE(inst.stats.gamma > 1.0);
    return inst;
  });
}

std::string describe(const Instance& inst) {
  std::ostringstream os;
  os << "k=" << inst.k() << " m=" << inst.X.cols() << " n=" << inst.X.rows()
     << " shape=" << inst.shape << " gamma=" << format_double(inst.stats.gamma) << " sizes=[";
  for (std::size_t i = 0; i < inst.stats.sizes.size(); ++i)
    os << (i ? "," : "") << inst.stats.sizes[i];
  os << "] radii=[";
  for (std::size_t i = 0; i < inst.stats.radii.size(); ++i)
    os << (i ? "," : "") << format_double(inst.stats.radii[i]);
  os << "]";
  return os.str();
}

void showValue(const Instance& inst, std::ostream& os) {
  os << describe(inst) << "\nX (row: label coordinates):\n";
  for (Eigen::Index i = 0; i < inst.X.rows(); ++i) {
    os << "  " << inst.labels[static_cast<std::size_t>(i)] << ":";
    for (Eigen::Index d = 0; d < inst.X.cols(); ++d)
      os << " " << format_double(inst.X(i, d));
    os << "\n";
  }
}

double cp_lower(std::uint64_t events, std::uint64_t trials, double alpha) {
  if (events == 0) return 0.0;
  return boost::math::binomial_distribution<>::find_lower_bound_on_p(
      static_cast<double>(trials), static_cast<double>(events), alpha);
}

double cp_upper(std::uint64_t events, std::uint64_t trials, double alpha) {
  if (events == trials) return 1.0;
  return boost::math::binomial_distribution<>::find_upper_bound_on_p(
      static_cast<double>(trials), static_cast<double>(events), alpha);
}

double per_case_alpha() {
  const auto cases = std::max<std::size_t>(1, rc::detail::configuration().testParams.maxSuccess);
  return 1e-6 / static_cast<double>(cases);
}

bool thorough() {
  const char* t = std::getenv("SSAC_THOROUGH");
  return t != nullptr && std::string(t) == "1";
}

namespace {
std::mutex g_mutex;
std::map<std::string, MarginRow>& rows() {
  static std::map<std::string, MarginRow> r;
  return r;
}

bool g_negative = false;
}  // namespace

NegativeControl::NegativeControl() {
  g_negative = true;
}
NegativeControl::~NegativeControl() {
  g_negative = false;
}
bool in_negative_control() {
  return g_negative;
}

const char* to_string(CheckOutcome o) {
  switch (o) {
    case CheckOutcome::passed:
      return "passed";
    case CheckOutcome::failed:
      return "failed";
    case CheckOutcome::gave_up:
      return "gave up";
    case CheckOutcome::error:
      return "error";
  }
  return "?";
}
std::ostream& operator<<(std::ostream& os, CheckOutcome o) {
  return os << to_string(o);
}

void record_margin(MarginRow row) {
  if (g_negative) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& r = rows();
  auto it = r.find(row.property);
  if (it == r.end()) {
    row.cases = 1;
    r.emplace(row.property, row);
    return;
  }
  const auto cases = it->second.cases + 1;
  if (row.slack < it->second.slack) it->second = row;
  it->second.cases = cases;
}

void write_margins() {
  const char* dir = std::getenv("SSAC_PROPS_MARGINS_DIR");
  if (dir == nullptr) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  for (const auto& [name, row] : rows()) {
    std::ofstream out(std::string(dir) + "/" + name + ".md");
    out << "| " << row.property << " | " << row.claim << " | " << row.cases << " | " << row.instance
        << " | " << row.events << "/" << row.trials << " | " << format_double(row.observed) << " | "
        << format_double(row.bound) << " | " << format_double(row.claimed) << " | "
        << format_double(row.slack) << " |\n";
  }
}

static std::string fmt(double x) {
  std::ostringstream os;
  os.precision(6);
  os << x;
  return os.str();
}

bool rate_at_most(const std::string& property, const std::string& instance, std::uint64_t events,
                  std::uint64_t trials, double claimed, const std::string& claim, double share) {
  const double alpha = share * per_case_alpha();
  const double lower = cp_lower(events, trials, alpha);
  const double observed = static_cast<double>(events) / static_cast<double>(trials);
  // Slack: claimed / upper bound of the rate; a ratio below 1 would not fail the property (the
  // test uses the lower bound) but shows how tight the statement is.
  const double upper = cp_upper(events, trials, alpha);
  record_margin({property, claim + " (rate <= claimed)", instance, trials, events, observed, lower,
                 claimed, upper > 0 ? claimed / upper : std::numeric_limits<double>::infinity()});
  if (lower > claimed) {
    RC_LOG() << property << ": " << events << " of " << trials << " trials (rate " << fmt(observed)
             << "), Clopper-Pearson lower bound " << fmt(lower) << " at alpha " << alpha
             << " exceeds the claimed " << fmt(claimed) << " (" << claim << "); " << instance
             << "\n";
    return false;
  }
  return true;
}

bool rate_at_least(const std::string& property, const std::string& instance, std::uint64_t events,
                   std::uint64_t trials, double claimed, const std::string& claim, double share) {
  const double alpha = share * per_case_alpha();
  const double upper = cp_upper(events, trials, alpha);
  const double lower = cp_lower(events, trials, alpha);
  const double observed = static_cast<double>(events) / static_cast<double>(trials);
  record_margin({property, claim + " (rate >= claimed)", instance, trials, events, observed, upper,
                 claimed, claimed > 0 ? lower / claimed : std::numeric_limits<double>::infinity()});
  if (upper < claimed) {
    RC_LOG() << property << ": " << events << " of " << trials << " trials (rate " << fmt(observed)
             << "), Clopper-Pearson upper bound " << fmt(upper) << " at alpha " << alpha
             << " is below the claimed " << fmt(claimed) << " (" << claim << "); " << instance
             << "\n";
    return false;
  }
  return true;
}

}  // namespace ssac::props

namespace ssac::props {

bool recovered_exactly(const std::vector<int>& estimated, const std::vector<int>& truth) {
  std::map<int, int> e2t, t2e;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    if (estimated[i] == 0) return false;
    auto [a, ina] = e2t.emplace(estimated[i], truth[i]);
    auto [b, inb] = t2e.emplace(truth[i], estimated[i]);
    if (a->second != truth[i] || b->second != estimated[i]) return false;
  }
  return true;
}

Instance with_center_points(const Instance& inst) {
  Instance out = inst;
  const auto n = inst.X.rows();
  const int k = inst.k();
  out.X.conservativeResize(n + k, inst.X.cols());
  for (int i = 0; i < k; ++i) {
    out.X.row(n + i) = inst.stats.means[static_cast<std::size_t>(i)].transpose();
    out.labels.push_back(i + 1);
  }
  out.stats = cluster_stats(out.X, out.labels);
  return out;
}

}  // namespace ssac::props
