// Phase 1 by counts (counts.hpp; proofs-notes/exact.md, "Phase 1 by counts" states the claim and
// why it holds).
//
// Within Phase 1 the reference reads the known clusters, their openers and the labels (and, under
// rules this engine does not take, the placements or the oracle's memory), never which rows Z_t
// holds. So a step from a state depends on its configuration alone: the reference is replayed
// once per configuration and branch of one draw, and the counts |Z_t| are carried by exact
// arithmetic. When every configuration sends a draw into a cluster t with row weights
// proportional to one vector beta_t, the rows placed in t after its first are independent draws
// from beta_t whatever the counts' path, so given the counts the Z_t are independent and each has
// the law of its first row followed by |Z_t| - 1 draws from beta_t: a product form checked here
// for every configuration reached (NotLumpable otherwise).
#include "counts.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "ssac/data.hpp"

namespace ssac::exact_internal {

namespace {

using Int = boost::multiprecision::cpp_int;
namespace mp = boost::multiprecision;

// A configuration: the run's Phase-1 state without Z (the known clusters in discovery order,
// their openers and the labels), with a path of draws that reaches it, and, once learned, where
// one more draw goes from it.
struct Config {
  std::vector<int> known;
  std::vector<std::size_t> opener;
  std::vector<int> labels, placed;
  std::vector<std::size_t> sample;  // a shortest path of draws reaching it
  std::vector<int> assignment;
  bool learned = false;
  Rational unplaced = 0;
  std::vector<std::map<std::size_t, Rational>> into;  // per known position: row -> probability
  std::vector<Rational> into_total;
  std::vector<std::pair<std::size_t, Rational>> opens;  // (configuration, probability)
  Rational queries = 0;                                 // E[Phase-1 queries of one draw]
};

std::string config_key(const std::vector<int>& known, const std::vector<std::size_t>& opener,
                       const std::vector<int>& labels) {
  std::string key;
  put(key, known);
  std::vector<std::size_t> o;
  for (int t : known)
    o.push_back(opener[static_cast<std::size_t>(t)]);
  put(key, o);
  put(key, labels);
  return key;
}

// One draw from a configuration, up to the boundary after its cluster-assignment query.
class OneDraw : public RunObserver {
 public:
  void queried(const QueryRecord& q) override {
    if (q.phase == 1) ++queries;
  }
  void run_state(const RunState& s) override {
    if (s.stage != RunState::Stage::draw_assigned)
      throw std::logic_error("exact enumeration (counts): a draw did not end at its query");
    row = s.record.sample.back();
    cluster = s.record.assignment.back();
    known = s.known;
    opener = s.openers;
    labels = s.labels;
    placed = s.placed;
    reached = true;
    throw StopAtBoundary{};
  }
  std::uint64_t queries = 0;
  bool reached = false;
  std::size_t row = 0;
  int cluster = 0;
  std::vector<int> known, labels, placed;
  std::vector<std::size_t> opener;
};

// What lines 8-13 read of a Z_t: its left-to-right sum (mean_of_rows), and where Phase 2 reads
// them its multiset (of rows or lumped labels, as sorted (value, count) pairs) and its first row;
// with the summary it came from and the row added, which give a witness sequence.
struct Summary {
  std::vector<double> sum;
  std::vector<std::pair<std::size_t, std::uint32_t>> multiset;  // only where B is drawn
  std::size_t first = 0;  // row + 1; only for the plain search
  const Summary* parent = nullptr;
  std::size_t row = 0;
  Int mass = 0;
};

using Counts = std::vector<std::uint32_t>;  // |Z_t| per known position

// A configuration's states after some draws: counts (`width` per state, one after another) in
// increasing lexicographic order, each with its probability N over D^s. A draw adds the same unit
// vector to every counts of a source, or appends a 1 (a cluster opened) to every one, and neither
// changes their order (the first coordinate where two counts differ, and how, stays the same): so
// the states after a draw are a merge of a few sorted sources, with no hashing and no sorting.
struct Layer {
  std::size_t width = 0;
  std::vector<std::uint32_t> keys;
  std::vector<Int> values;
  std::size_t size() const { return values.size(); }
  bool empty() const { return values.empty(); }
  Counts counts(std::size_t e) const {
    return Counts(keys.begin() + static_cast<std::ptrdiff_t>(e * width),
                  keys.begin() + static_cast<std::ptrdiff_t>((e + 1) * width));
  }
};

// A sorted source of a merge: a layer's states with one coordinate raised by 1 (`add`; kNone for
// none) or a 1 appended (`append`), each probability times `weight`. `head` is the counts of its
// next state as the merge sees them.
struct Source {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Layer* layer;
  std::size_t add;
  bool append;
  const Int* weight;
  std::size_t at = 0;
  std::vector<std::uint32_t> head;
  bool load() {  // false once every state is taken
    if (at == layer->size()) return false;
    const std::size_t w = layer->width;
    head.assign(layer->keys.begin() + static_cast<std::ptrdiff_t>(at * w),
                layer->keys.begin() + static_cast<std::ptrdiff_t>((at + 1) * w));
    if (add != kNone) ++head[add];
    if (append) head.push_back(1);
    return true;
  }
};

// The states of `out` (its width set) from `sources`: equal counts summed.
void merge(std::vector<Source>& sources, Layer& out) {
  std::size_t total = 0;
  std::vector<Source*> live;
  for (Source& src : sources) {
    total += src.layer->size();
    if (src.load()) live.push_back(&src);
  }
  out.keys.reserve(total * out.width);
  out.values.reserve(total);
  std::vector<Source*> at_min;
  while (!live.empty()) {
    // The smallest counts among the sources' next states, and every source that has them.
    at_min.assign(1, live[0]);
    for (std::size_t i = 1; i < live.size(); ++i) {
      const auto cmp = live[i]->head <=> at_min[0]->head;
      if (cmp < 0)
        at_min.assign(1, live[i]);
      else if (cmp == 0)
        at_min.push_back(live[i]);
    }
    out.keys.insert(out.keys.end(), at_min[0]->head.begin(), at_min[0]->head.end());
    Int sum = at_min[0]->layer->values[at_min[0]->at] * *at_min[0]->weight;
    for (std::size_t i = 1; i < at_min.size(); ++i)
      sum += at_min[i]->layer->values[at_min[i]->at] * *at_min[i]->weight;
    out.values.push_back(std::move(sum));
    for (Source* src : at_min) {
      ++src->at;
      if (!src->load()) live.erase(std::find(live.begin(), live.end(), src));
    }
  }
}

}  // namespace

// Z_t's law given its count, for one first row and one beta: the same in every iteration and
// every start state that has them, so kept for the whole enumeration (LawCache).
class ZLaw {
 public:
  // Z_t starts with `first` (the opener, when t opens in this iteration) or empty; each later row
  // is drawn from `beta` (row -> probability, summing to 1).
  ZLaw(const CountsSetup& s, std::optional<std::size_t> first,
       const std::map<std::size_t, Rational>& beta)
      : X_(s.X), lump_(s.lump), reads_b_(s.reads_b), plain_(s.plain), c0_(first ? 1 : 0) {
    Int lcm = 1;
    for (const auto& [x, w] : beta)
      lcm = mp::lcm(lcm, mp::denominator(w));
    for (const auto& [x, w] : beta)
      beta_.emplace_back(x, Int(mp::numerator(w) * (lcm / mp::denominator(w))));
    scale_ = lcm;
    Summary z;
    z.sum.assign(static_cast<std::size_t>(X_.cols()), 0.0);
    z.mass = 1;
    if (first) add(z, *first);
    z.parent = nullptr;
    levels_.emplace_back();
    levels_.back().emplace(key(z), std::move(z));
  }
  // The summaries of Z_t with c rows, with masses over scale^(c - c0).
  const std::map<std::string, Summary>& at(std::size_t c) {
    if (c < c0_) throw std::logic_error("exact enumeration (counts): a cluster below its opener");
    while (levels_.size() <= c - c0_) {
      std::map<std::string, Summary> next;
      for (const auto& [k, z] : levels_.back())
        for (const auto& [x, b] : beta_) {
          Summary y;
          y.sum = z.sum;
          y.multiset = z.multiset;
          y.first = z.first;
          add(y, x);
          y.parent = &z;
          auto [it, fresh] = next.try_emplace(key(y), std::move(y));
          it->second.mass += z.mass * b;
        }
      levels_.push_back(std::move(next));
    }
    return levels_[c - c0_];
  }
  // Masses at c rows are over scale()^draws(c).
  const Int& scale() const { return scale_; }
  std::size_t draws(std::size_t c) const { return c - c0_; }
  // The rows of a sequence with summary z, in draw order.
  static std::vector<std::size_t> witness(const Summary& z, bool has_first) {
    std::vector<std::size_t> rows;
    const Summary* at = &z;
    for (; at->parent; at = at->parent)
      rows.push_back(at->row);
    if (has_first) rows.push_back(at->row);
    std::reverse(rows.begin(), rows.end());
    return rows;
  }
  bool has_first() const { return c0_ == 1; }

 private:
  void add(Summary& z, std::size_t x) const {
    for (Eigen::Index c = 0; c < X_.cols(); ++c)
      z.sum[static_cast<std::size_t>(c)] += X_(static_cast<Eigen::Index>(x), c);
    if (reads_b_) {
      const std::size_t v = lump_ ? static_cast<std::size_t>((*lump_)[x]) : x;
      auto it = std::lower_bound(z.multiset.begin(), z.multiset.end(),
                                 std::pair<std::size_t, std::uint32_t>(v, 0));
      if (it != z.multiset.end() && it->first == v)
        ++it->second;
      else
        z.multiset.insert(it, {v, 1});
    }
    if (plain_ && z.first == 0) z.first = x + 1;
    z.row = x;
  }
  std::string key(const Summary& z) const {
    std::string k;
    for (double v : z.sum)
      put_bits(k, v);
    put_int(k, z.multiset.size());
    for (const auto& [v, n] : z.multiset) {
      put_int(k, v);
      put_int(k, n);
    }
    put_int(k, z.first);
    return k;
  }
  const Matrix& X_;
  const std::vector<int>* lump_;
  bool reads_b_, plain_;
  std::size_t c0_;
  std::vector<std::pair<std::size_t, Int>> beta_;
  Int scale_ = 1;
  std::vector<std::map<std::string, Summary>> levels_;
};

// What lines 8-13 read of the summaries of Z_p that share it (their masses summed), with one of
// them.
struct Read {
  Int mass;
  const Summary* rep = nullptr;
};

struct LawCache {
  std::map<std::string, std::unique_ptr<ZLaw>> laws;  // by first row and beta
  // By law, |Z_p| and S_i.
  std::map<std::tuple<const ZLaw*, std::uint32_t, std::vector<std::size_t>>,
           std::map<std::string, Read>>
      reads;
};

std::shared_ptr<LawCache> make_law_cache() {
  return std::make_shared<LawCache>();
}

namespace {

// The cache's key of (first row, beta).
std::string law_key(std::optional<std::size_t> first, const std::map<std::size_t, Rational>& beta) {
  std::string k = first ? std::to_string(*first) : "-";
  for (const auto& [x, w] : beta)
    k += " " + std::to_string(x) + ":" + mp::numerator(w).str() + "/" + mp::denominator(w).str();
  return k;
}

}  // namespace

CountsResult phase1_by_counts(const CountsSetup& setup, const Snapshot& start) {
  const detail::Run::Resume& at = start.run;
  if (!at.sample.empty() || at.S.empty())
    throw std::logic_error("exact enumeration (counts): not at an iteration's start");
  const std::uint64_t r = setup.draws;
  CountsResult out;

  // The configurations, breadth first (so each one's path is a shortest), each learned by
  // replaying every branch of one draw from it.
  std::vector<Config> configs;
  std::map<std::string, std::size_t> index;
  {
    Config c0;
    c0.known = at.known;
    c0.opener = at.opener;
    c0.labels = at.labels;
    c0.placed = at.placed;
    index.emplace(config_key(c0.known, c0.opener, c0.labels), 0);
    configs.push_back(std::move(c0));
  }
  for (std::size_t id = 0; id < configs.size(); ++id) {
    if (configs[id].sample.size() >= r) continue;  // reached only after the last draw
    Snapshot snap = start;
    snap.run.known = configs[id].known;
    snap.run.opener = configs[id].opener;
    snap.run.labels = configs[id].labels;
    snap.run.placed = configs[id].placed;
    snap.run.sample = configs[id].sample;
    snap.run.assignment = configs[id].assignment;
    const std::size_t width = configs[id].known.size();
    configs[id].into.assign(width, {});
    configs[id].into_total.assign(width, 0);
    Branches br;
    do {
      br.restart();
      setup.count_replay();
      OneDraw obs;
      try {
        setup.replay(br, snap, obs);
      } catch (const StopAtBoundary&) {
      }
      if (!obs.reached) throw std::logic_error("exact enumeration (counts): a draw was not made");
      const Rational w = br.probability();
      Config& c = configs[id];
      c.queries += w * obs.queries;
      if (obs.cluster == 0) {
        c.unplaced += w;
        continue;
      }
      const auto pos = std::find(c.known.begin(), c.known.end(), obs.cluster);
      if (pos != c.known.end()) {
        if (obs.known != c.known)
          throw std::logic_error("exact enumeration (counts): a placement changed the clusters");
        const auto j = static_cast<std::size_t>(pos - c.known.begin());
        c.into[j][obs.row] += w;
        c.into_total[j] += w;
        continue;
      }
      // A new cluster, opened by this draw: another configuration.
      if (obs.known.size() != width + 1 || obs.known.back() != obs.cluster)
        throw std::logic_error("exact enumeration (counts): an opening did not add one cluster");
      const std::string key = config_key(obs.known, obs.opener, obs.labels);
      auto [it, fresh] = index.try_emplace(key, configs.size());
      if (fresh) {
        Config n;
        n.known = obs.known;
        n.opener = obs.opener;
        n.labels = obs.labels;
        n.placed = obs.placed;
        n.sample = c.sample;
        n.sample.push_back(obs.row);
        n.assignment = c.assignment;
        n.assignment.push_back(obs.cluster);
        configs.push_back(std::move(n));
      }
      Config& cc = configs[id];  // push_back may have moved it
      const std::size_t target = it->second;
      auto o = std::find_if(cc.opens.begin(), cc.opens.end(),
                            [&](const auto& e) { return e.first == target; });
      if (o == cc.opens.end())
        cc.opens.emplace_back(target, w);
      else
        o->second += w;
    } while (br.next());
    configs[id].learned = true;
  }

  // The product form: every configuration's row weights into a cluster (with a given first row)
  // proportional to one beta.
  std::map<std::pair<int, std::size_t>, std::map<std::size_t, Rational>> beta;
  const std::size_t none = at.labels.size();  // no first row: the cluster was known at the start
  const auto first_of = [&](const Config& c, std::size_t j) {
    return j < at.known.size() ? none : c.opener[static_cast<std::size_t>(c.known[j])];
  };
  for (const Config& c : configs) {
    if (!c.learned) continue;
    for (std::size_t j = 0; j < c.known.size(); ++j) {
      if (c.into_total[j] == 0) continue;
      std::map<std::size_t, Rational> b;
      for (const auto& [x, w] : c.into[j])
        b.emplace(x, w / c.into_total[j]);
      auto [it, fresh] = beta.try_emplace({c.known[j], first_of(c, j)}, b);
      if (!fresh && it->second != b && setup.check) throw NotLumpable{};
    }
  }

  // The counts, draw by draw, as integers over D^s: D a common denominator of every step.
  Int D = 1;
  for (const Config& c : configs) {
    if (!c.learned) continue;
    D = mp::lcm(D, mp::denominator(c.unplaced));
    for (const Rational& w : c.into_total)
      D = mp::lcm(D, mp::denominator(w));
    for (const auto& e : c.opens)
      D = mp::lcm(D, mp::denominator(e.second));
  }
  const auto scaled = [&](const Rational& w) {
    return Int(mp::numerator(w) * (D / mp::denominator(w)));
  };
  struct Steps {  // a configuration's step, as integers over D
    Int unplaced;
    std::vector<Int> into;
    std::vector<std::pair<std::size_t, Int>> opens;
  };
  std::vector<Steps> steps(configs.size());
  for (std::size_t id = 0; id < configs.size(); ++id) {
    const Config& c = configs[id];
    if (!c.learned) continue;
    steps[id].unplaced = scaled(c.unplaced);
    for (const Rational& w : c.into_total)
      steps[id].into.push_back(scaled(w));
    for (const auto& [target, w] : c.opens)
      steps[id].opens.emplace_back(target, scaled(w));
  }
  // Each configuration's counts kept sorted, so that a draw's arithmetic is a merge (Layer).
  std::vector<Layer> cur(configs.size());
  for (std::size_t id = 0; id < configs.size(); ++id)
    cur[id].width = configs[id].known.size();
  cur[0].keys.assign(at.known.size(), 0);
  cur[0].values.emplace_back(1);
  // Where each configuration's states come from after a draw: itself (a draw unplaced, or placed
  // in one of its clusters) and the configurations that open it.
  std::vector<std::vector<std::pair<std::size_t, const Int*>>> openers_of(configs.size());
  for (std::size_t id = 0; id < configs.size(); ++id)
    for (const auto& [target, w] : steps[id].opens)
      openers_of[target].emplace_back(id, &w);
  // E[draws made from each configuration] D^(r-1), summed draw by draw as integers (Horner): a
  // fraction per draw would reduce numbers of s digits each time.
  std::vector<Int> drawn(configs.size());
  std::vector<Source> sources;
  for (std::uint64_t s = 0; s < r; ++s) {
    if (s > 0)
      for (Int& x : drawn)
        x *= D;
    std::vector<Layer> next(configs.size());
    std::size_t held = 0;
    for (std::size_t id = 0; id < configs.size(); ++id) {
      next[id].width = cur[id].width;
      sources.clear();
      if (!cur[id].empty()) {
        if (!configs[id].learned)
          throw std::logic_error("exact enumeration (counts): a step not learned");
        const Steps& st = steps[id];
        if (!st.unplaced.is_zero())
          sources.push_back({&cur[id], Source::kNone, false, &st.unplaced, 0, {}});
        for (std::size_t j = 0; j < st.into.size(); ++j)
          if (!st.into[j].is_zero()) sources.push_back({&cur[id], j, false, &st.into[j], 0, {}});
        for (const Int& N : cur[id].values)
          drawn[id] += N;
      }
      for (const auto& [from, w] : openers_of[id])
        if (!cur[from].empty()) sources.push_back({&cur[from], Source::kNone, true, w, 0, {}});
      merge(sources, next[id]);
      held += next[id].size();
    }
    cur = std::move(next);
    out.states += held;
    setup.count_states(held);
  }
  const Int Ds = mp::pow(D, static_cast<unsigned>(r));  // D^r, the last states' denominator
  {
    const Int last = Ds / D;  // D^(r-1)
    for (std::size_t id = 0; id < configs.size(); ++id)
      if (!drawn[id].is_zero())
        out.queries_phase1 += Rational(drawn[id], last) * configs[id].queries;
  }

  // Line 8: p by the reference's rule; the states with the same configuration, p and |Z_p| differ
  // only in what the rest of the run does not read (the other clusters' counts).
  std::map<std::tuple<std::size_t, std::size_t, std::uint32_t>, std::pair<Int, Counts>> groups;
  std::map<std::size_t, Int> no_p;  // every draw unplaced: no cluster chosen
  std::vector<std::size_t> wide;
  for (std::size_t id = 0; id < configs.size(); ++id)
    for (std::size_t e = 0; e < cur[id].size(); ++e) {
      const Counts counts = cur[id].counts(e);
      const Int& N = cur[id].values[e];
      wide.assign(counts.begin(), counts.end());
      const int chosen = detail::Run::choose_by_counts(wide);
      if (chosen == 0) {
        no_p[id] += N;
        continue;
      }
      const auto j = static_cast<std::size_t>(chosen - 1);
      auto [it, fresh] = groups.try_emplace({id, j, counts[j]}, N, counts);
      if (!fresh) it->second.first += N;
    }

  // A representative run at line 8: Z holds `zp` for p (its rows in order), the other clusters'
  // counts by their openers' rows (not read after line 8), then unplaced draws.
  const auto representative = [&](const Config& c, std::size_t j, const Counts& counts,
                                  const std::vector<std::size_t>& zp) {
    auto snap = std::make_shared<Snapshot>(start);
    detail::Run::Resume& run = snap->run;
    run.known = c.known;
    run.opener = c.opener;
    run.labels = c.labels;
    run.placed = c.placed;
    run.sample.clear();
    run.assignment.clear();
    for (std::size_t i = 0; i < counts.size(); ++i) {
      const int t = c.known[i];
      for (std::uint32_t m = 0; m < counts[i]; ++m) {
        run.sample.push_back(i == j ? zp[m] : c.opener[static_cast<std::size_t>(t)]);
        run.assignment.push_back(t);
      }
    }
    while (run.sample.size() < r) {
      run.sample.push_back(at.S.front());
      run.assignment.push_back(0);
    }
    return snap;
  };

  // The ends' probabilities as integers over one denominator, Ds * L^r with L a common multiple of
  // the laws' scales, reduced once per end: a reduction per term would cost more than the rest.
  std::map<std::string, CountsEnd> ends;
  std::map<std::string, Int> numerators;
  std::shared_ptr<LawCache> own;
  LawCache* cache = setup.laws;
  if (!cache) {
    own = make_law_cache();
    cache = own.get();
  }
  std::map<std::pair<int, std::size_t>, ZLaw*> laws;
  for (const auto& [g, value] : groups) {
    const Config& c = configs[std::get<0>(g)];
    const std::size_t j = std::get<1>(g);
    const int t = c.known[j];
    const std::size_t first = first_of(c, j);
    ZLaw*& law = laws[{t, first}];
    if (law) continue;
    static const std::map<std::size_t, Rational> no_draws;
    const auto b = beta.find({t, first});
    const auto& weights = b == beta.end() ? no_draws : b->second;
    const std::optional<std::size_t> f = first == none ? std::nullopt : std::optional(first);
    std::unique_ptr<ZLaw>& slot = cache->laws[law_key(f, weights)];
    if (!slot) slot = std::make_unique<ZLaw>(setup, f, weights);
    law = slot.get();
  }
  Int L = 1;
  for (const auto& [tf, law] : laws)
    L = mp::lcm(L, law->scale());
  const Int Lr = mp::pow(L, static_cast<unsigned>(r));
  const Int denominator = Ds * Lr;
  for (const auto& [id, N] : no_p) {
    std::string key = "none";
    key += config_key(configs[id].known, configs[id].opener, configs[id].labels);
    CountsEnd& e = ends[key];
    if (!e.snapshot)
      e.snapshot = representative(configs[id], 0, Counts(configs[id].known.size(), 0), {});
    numerators[key] += N * Lr;
  }
  // What lines 8-13 read of each summary of Z_p with |Z_p| = c, merged: the same for every group
  // with that law, count and S_i, in this start state or another (LawCache::reads).
  auto& reads = cache->reads;
  std::vector<double> d(at.S.size());
  std::vector<std::pair<double, std::size_t>> order(at.S.size());
  const auto reads_of = [&](ZLaw& law, std::uint32_t cp) -> const std::map<std::string, Read>& {
    auto [slot, fresh] = reads.try_emplace({&law, cp, at.S});
    if (!fresh) return slot->second;
    for (const auto& [zkey, z] : law.at(cp)) {
      // Lines 8-10 as the reference computes them: mu'_p = the sum / |Z_p| (mean_of_rows), S_i by
      // distance to it, ties by row (S6), with a mark where neighbours are at equal distance.
      Vector center(setup.X.cols());
      for (Eigen::Index col = 0; col < center.size(); ++col)
        center(col) = z.sum[static_cast<std::size_t>(col)] / static_cast<double>(cp);
      distances(setup.X, at.S, center, d.data());
      for (std::size_t i = 0; i < at.S.size(); ++i)
        order[i] = {d[i], at.S[i]};
      std::sort(order.begin(), order.end());
      std::string key;
      for (std::size_t i = 0; i < order.size(); ++i)
        put_int(key, 2 * order[i].second +
                         (i + 1 < order.size() && order[i].first == order[i + 1].first ? 1 : 0));
      // Phase 2 reads Z_p's multiset only through draws of B, uniform positions with replacement
      // (S5): each value with probability its count / |Z_p|. So only the proportions are read,
      // the counts divided by their greatest common divisor (and |Z_p| not at all).
      std::uint32_t g = 0;
      for (const auto& [v, n] : z.multiset)
        g = std::gcd(g, n);
      put_int(key, z.multiset.size());
      for (const auto& [v, n] : z.multiset) {
        put_int(key, v);
        put_int(key, n / g);
      }
      put_int(key, z.first);
      Read& rd = slot->second[key];
      rd.mass += z.mass;
      if (!rd.rep) rd.rep = &z;
    }
    return slot->second;
  };
  for (const auto& [g, value] : groups) {
    const auto& [id, j, cp] = g;
    const Config& c = configs[id];
    const int t = c.known[j];
    ZLaw& law = *laws[{t, first_of(c, j)}];
    // N / Ds times the summary's mass / scale^e, over Ds * L^r: N mass (L / scale)^e L^(r - e).
    const unsigned e = static_cast<unsigned>(law.draws(cp));
    const Int factor =
        value.first * mp::pow(L / law.scale(), e) * mp::pow(L, static_cast<unsigned>(r) - e);
    std::string head = config_key(c.known, c.opener, c.labels);
    put_int(head, static_cast<std::uint64_t>(t));
    for (const auto& [part, rd] : reads_of(law, cp)) {
      const std::string key = head + part;
      CountsEnd& end = ends[key];
      if (!end.snapshot) {
        end.snapshot = representative(c, j, value.second, ZLaw::witness(*rd.rep, law.has_first()));
        end.p = t;
      }
      numerators[key] += factor * rd.mass;
    }
  }
  for (auto& [key, e] : ends) {
    e.key = key;
    e.probability = Rational(numerators[key], denominator);
    out.ends.push_back(std::move(e));
  }
  return out;
}

}  // namespace ssac::exact_internal
