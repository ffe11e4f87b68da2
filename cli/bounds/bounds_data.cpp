// ssac bounds --data (bounds_data.hpp). The numbers come from theory::distance_weak_local
// (Theorem 2, (nu, rho) local distance-weak oracle) and theory::distance_weak_global (Theorem 3,
// rho global distance-weak oracle); this file adds the reason a row's conditions fail and lays
// the rows out.
#include "bounds/bounds_data.hpp"

#include <cmath>
#include <iostream>

#include "bounds/bounds_common.hpp"
#include "options/decimal_option.hpp"
#include "output/table.hpp"
#include "ssac/data.hpp"
#include "ssac/error.hpp"
#include "ssac/theory/hypotheses.hpp"

namespace ssac::cli {

namespace {

using theory::Real50;

struct DataRow {
  theory::DistanceWeakReport r;
  theory::Decimal delta;
  bool satisfied = false;  // r.satisfied and the file's own hypotheses (DataInfo)
  std::string reason;      // empty when the theorem's conditions hold
};

// The hypotheses that depend on the file alone (theory::check_clustering): X is a set of distinct
// points and a center-based clustering with respect to its means (Definition 1). The margin,
// nu/rho and x* conditions are per row, in theory::DistanceWeakReport.
struct DataInfo {
  std::size_t k = 0, m = 0, n = 0;
  theory::Hypothesis distinct, center_based;
};

// Every condition that theory::DistanceWeakReport::satisfied combines, in words: gamma > 1 and
// finite; gamma <= nu <= gamma + 1 (Theorem 2 only); an x* in every cluster with
// d(x*, mu_i) < (c - 2 epsilon) r(C_i) for some epsilon > 0, i.e. t_max < c; q_d > 0 (the proof's
// q_d = min_i |G_i(c)| / |C_i|).
std::string failure_reason(const theory::DistanceWeakReport& r, const DataInfo& info) {
  std::vector<std::string> why;
  if (!info.distinct.holds) why.push_back("points not distinct: " + info.distinct.detail);
  if (!info.center_based.holds)
    why.push_back("not center-based with respect to the means (Definition 1): " +
                  info.center_based.detail);
  const std::string thm = r.global ? "Theorem 3" : "Theorem 2";
  if (!(r.gamma > 1))
    why.push_back("gamma = " + format_double(r.gamma) + " <= 1 (" + thm + " needs gamma > 1)");
  else if (!std::isfinite(r.gamma))
    why.push_back("gamma = inf (one cluster, or every cluster of radius 0): no finite margin");
  if (!r.nu_in_range)
    why.push_back("nu = " + r.nu.str() + " is outside [gamma, gamma+1] = [" +
                  format_double(r.gamma) + ", " + format_double(r.gamma + 1) + "]");
  if (!(r.c_exact > theory::Decimal())) {
    why.push_back("c = " + format_double(r.c) + " <= 0 leaves every G_i(c) empty, so no x*");
  } else {
    if (!r.x_star)
      why.push_back("no x*: some cluster has no point closer than c r(C_i) to its mean (t_max = " +
                    format_double(r.t_max) + " >= c = " + format_double(r.c) + ")");
    if (r.good == 0)
      why.push_back("q_d = 0: G_" + std::to_string(r.worst_cluster) + "(c) is empty");
  }
  std::string out;
  for (const auto& w : why)
    out += (out.empty() ? "" : "; ") + w;
  return out;
}

// value_text with -0 (1 - (1 - 0)^2 in binary floating point) printed as 0.
std::string dv(const Real50& x) {
  return x == 0 ? value_text(Real50(0)) : value_text(x);
}

std::string fraction(const theory::DistanceWeakReport& r) {
  return std::to_string(r.good) + "/" + std::to_string(r.size);
}

// Six significant digits, no exponent for ordinary magnitudes (tables only).
std::string short_v(const Real50& x) {
  using boost::multiprecision::isinf;
  if (isinf(x)) return x > 0 ? "inf" : "-inf";
  return x.str(6);
}

// A finite double as a JSON number (shortest exact form), infinity as null.
Json jnum(double x) {
  return std::isfinite(x) ? number_token(format_double(x)) : Json(nullptr);
}

std::string json_output(const DataInfo& info, const std::vector<DataRow>& rows) {
  std::vector<Json> out;
  for (const DataRow& row : rows) {
    const auto& r = row.r;
    Json j;
    j["oracle"] = r.global ? "global" : "local";
    j["theorem"] = r.global ? 3 : 2;
    j["nu"] = r.global ? Json(nullptr) : number_token(r.nu.str());
    j["rho"] = number_token(r.rho.str());
    j["delta"] = number_token(row.delta.str());
    j["k"] = info.k;
    j["m"] = info.m;
    j["n"] = info.n;
    j["gamma"] = jnum(r.gamma);
    j["c"] = jnum(r.c);
    j["worst_cluster"] = r.worst_cluster;
    j["good"] = r.good;
    j["size"] = r.size;
    j["q_d"] = dv(r.q_d);
    j["q"] = dv(r.q);
    j["t_max"] = jnum(r.t_max);
    j["epsilon"] = dv(r.epsilon);
    j["nu_in_range"] = r.nu_in_range;
    j["x_star"] = r.x_star;
    j["distinct"] = info.distinct.holds;
    j["center_based"] = info.center_based.holds;
    j["satisfied"] = row.satisfied;
    j["eta"] = row.satisfied && r.eta ? certified_json(*r.eta) : Json(nullptr);
    const bool corrected = row.satisfied && r.eta_corrected.has_value();
    j["gamma_corrected"] = corrected ? jnum(r.gamma_corrected) : Json(nullptr);
    j["eta_corrected"] = corrected ? certified_json(*r.eta_corrected) : Json(nullptr);
    j["reason"] = row.reason.empty() ? Json(nullptr) : Json(row.reason);
    out.push_back(std::move(j));
  }
  return write_rows(out, {"gamma", "t_max", "eta", "gamma_corrected", "eta_corrected"});
}

Table csv_table(const DataInfo& info, const std::vector<DataRow>& rows) {
  Table t;
  t.columns = columns(
      "oracle,theorem,nu,rho,delta,k,m,n,gamma,c,worst_cluster,good,size,q_d,q,t_max,epsilon,"
      "nu_in_range,x_star,distinct,center_based,satisfied,eta,eta_ceil,gamma_corrected,"
      "eta_corrected,eta_corrected_ceil,reason");
  for (const DataRow& row : rows) {
    const auto& r = row.r;
    auto flag = [](bool b) { return std::string(b ? "1" : "0"); };
    const bool corrected = row.satisfied && r.eta_corrected.has_value();
    t.add({r.global ? "global" : "local",
           r.global ? "3" : "2",
           r.global ? "" : r.nu.str(),
           r.rho.str(),
           row.delta.str(),
           std::to_string(info.k),
           std::to_string(info.m),
           std::to_string(info.n),
           format_double(r.gamma),
           format_double(r.c),
           std::to_string(r.worst_cluster),
           std::to_string(r.good),
           std::to_string(r.size),
           dv(r.q_d),
           dv(r.q),
           format_double(r.t_max),
           dv(r.epsilon),
           flag(r.nu_in_range),
           flag(r.x_star),
           flag(info.distinct.holds),
           flag(info.center_based.holds),
           flag(row.satisfied),
           row.satisfied && r.eta ? value_text(r.eta->value) : "",
           row.satisfied && r.eta ? int_or(r.eta->ceil, "") : "",
           corrected ? format_double(r.gamma_corrected) : "",
           corrected ? value_text(r.eta_corrected->value) : "",
           corrected ? int_or(r.eta_corrected->ceil, "") : "",
           row.reason});
  }
  return t;
}

std::string text_output(const std::string& file, const DataInfo& info,
                        const std::vector<DataRow>& rows) {
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i].r;
    if (i) out += "\n";
    out += std::string(r.global ? "global" : "local") + " distance-weak oracle (Theorem " +
           (r.global ? "3" : "2") + "): " + (r.global ? "" : "nu = " + r.nu.str() + ", ") +
           "rho = " + r.rho.str() + ", delta = " + rows[i].delta.str() + "\n";
    // name, value, note
    Table t{{{"", Align::left, "", 12, ""}, {"", Align::left, "", 28, " "}, {"", Align::left}}, {}};
    t.add({"data", file,
           "k = " + std::to_string(info.k) + ", m = " + std::to_string(info.m) +
               ", n = " + std::to_string(info.n)});
    t.add({"gamma", format_double(r.gamma), "the dataset's margin (a supremum)"});
    t.add({"c", format_double(r.c), r.global ? "2rho-1" : "min{2rho-1, gamma-nu+1}"});
    t.add({r.global ? "q_d'" : "q_d", dv(r.q_d),
           "min_i |G_i(c)|/|C_i| = " + fraction(r) + " (cluster " +
               std::to_string(r.worst_cluster) + ")"});
    t.add({"q", dv(r.q), r.global ? "q_d'^2" : "1-(1-q_d)^2"});
    t.add({"t_max", format_double(r.t_max), "max_i min_{x in C_i} d(x, mu_i)/r(C_i)"});
    t.add({"epsilon", dv(r.epsilon), "min((gamma-1)/2, (c-t_max)/2)"});
    t.add({"distinct", info.distinct.holds ? "yes" : "no", info.distinct.detail});
    t.add({"Definition 1", info.center_based.holds ? "yes" : "no", info.center_based.detail});
    t.add({"conditions", rows[i].satisfied ? "hold" : "fail", rows[i].reason});
    if (rows[i].satisfied && r.eta)
      t.add({"eta", int_or(r.eta->ceil, "n/a"), value_text(r.eta->value)});
    else
      t.add({"eta", "n/a", ""});
    // The corrected Theorems 2' and 3' (anchors in G_i(c)):
    // proofs-notes/distance-weak-corrected.md.
    if (rows[i].satisfied && r.eta_corrected)
      t.add({"eta'", int_or(r.eta_corrected->ceil, "n/a"),
             "corrected theorem: eta_mcdiarmid at q = 1, gamma' = 1+2 epsilon = " +
                 format_double(r.gamma_corrected)});
    out += to_text(t, {"  ", false, true});
  }
  return out;
}

// markdown and latex: oracle, parameters, q_d as good/size, the conditions and eta's ceiling.
Table central_table(const std::vector<DataRow>& rows) {
  Table t;
  const std::vector<std::tuple<const char*, Align, const char*>> head = {
      {"oracle", Align::left, ""},
      {"nu", Align::right, "$\\nu$"},
      {"rho", Align::right, "$\\rho$"},
      {"delta", Align::right, "$\\delta$"},
      {"gamma", Align::right, "$\\gamma$"},
      {"c", Align::right, "$c$"},
      {"q_d", Align::right, "$q_d$"},
      {"q", Align::right, "$q$"},
      {"epsilon", Align::right, "$\\epsilon$"},
      {"holds", Align::left, ""},
      {"eta", Align::right, "$\\eta$"},
      {"reason", Align::left, ""}};
  for (const auto& [name, align, latex] : head)
    t.columns.push_back({name, align, latex});
  for (const DataRow& row : rows) {
    const auto& r = row.r;
    t.add({r.global ? "global" : "local", r.global ? "-" : r.nu.str(), r.rho.str(), row.delta.str(),
           short_v(Real50(r.gamma)), short_v(Real50(r.c)), fraction(r),
           short_v(r.q == 0 ? Real50(0) : r.q), short_v(r.epsilon == 0 ? Real50(0) : r.epsilon),
           row.satisfied ? "yes" : "no", row.satisfied && r.eta ? int_or(r.eta->ceil, "-") : "-",
           row.reason});
  }
  return t;
}

}  // namespace

int run_data(const DataRequest& request) {
  const auto nus = decimals("nu", request.nu, theory::kNuRange);
  const auto rhos = decimals("rho", request.rho, theory::kRhoRange);
  const auto deltas = decimals("delta", request.delta, theory::kDeltaRange);
  // Which oracles: both when nu is given, else the global one, which needs no nu (Theorem 3).
  const std::string oracle = !request.oracle.empty() ? request.oracle
                             : request.nu_given      ? "both"
                                                     : "global";
  if (oracle == "global" && request.nu_given)
    throw ParameterError("--nu applies only to --oracle local or both");
  if (oracle != "global" && !request.nu_given)
    throw ParameterError("--oracle " + oracle + " needs --nu (Theorem 2's nu >= 1)");
  const Dataset d = read_csv(request.file);
  if (!d.has_labels())
    throw DataError(request.file +
                    ": no 'label' column; Theorems 2 and 3 need the oracle's clustering");
  // The file's own hypotheses, once for every row (theory/hypotheses.hpp).
  const theory::HypothesisReport file = theory::check_clustering(d);
  const DataInfo info{static_cast<std::size_t>(d.num_labels()), d.m(), d.n(),
                      *file.find(theory::HypothesisId::distinct),
                      *file.find(theory::HypothesisId::center_based)};
  // Every row is computed (and its parameters checked by theory/) before any output, so a bad
  // value prints nothing.
  std::vector<DataRow> rows;
  auto add = [&rows, &info](theory::DistanceWeakReport r, const theory::Decimal& delta) {
    const bool ok = r.satisfied && info.distinct.holds && info.center_based.holds;
    std::string why = ok ? std::string() : failure_reason(r, info);
    rows.push_back({std::move(r), delta, ok, std::move(why)});
  };
  if (oracle != "global")
    for (const auto& nu : nus)
      for (const auto& rho : rhos)
        for (const auto& delta : deltas)
          add(theory::distance_weak_local(d, nu, rho, delta), delta);
  if (oracle != "local")
    for (const auto& rho : rhos)
      for (const auto& delta : deltas)
        add(theory::distance_weak_global(d, rho, delta), delta);
  std::string out;
  if (request.format == "json")
    out = json_output(info, rows);
  else if (request.format == "csv")
    out = to_csv(csv_table(info, rows));
  else if (request.format == "markdown")
    out = to_markdown(central_table(rows));
  else if (request.format == "latex")
    out = to_latex(central_table(rows));
  else
    out = text_output(request.file, info, rows);
  std::cout << out;
  return 0;
}

}  // namespace ssac::cli
