// Traces: a versioned JSON Lines record of one SSAC run (docs/trace-format.md, schema
// schemas/ssac-trace-v4.schema.json; versions 1 to 3 are still read), and their replay through the
// reference (`ssac validate`).
//
// A trace holds every random choice (the Phase-1 draws of Algorithm 1 line 4, the draws of B in
// Algorithms 2 and 4, and the anchor draws of the random anchor rules) and every oracle answer, so
// a run can be replayed without sharing a random number generator: the replay's Chooser hands the
// reference the recorded draws, its Oracle the recorded answers, and the reference's own events are
// compared with the trace's one by one as the run reports them. Writing and replaying are both
// observers of a run (ssac/observer.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssac/data.hpp"
#include "ssac/observer.hpp"
#include "ssac/oracle.hpp"
#include "ssac/oracle_spec.hpp"
#include "ssac/ssac.hpp"

namespace ssac {

inline constexpr const char* kTraceFormat = "ssac-trace";
// The newest version, read and written. Version 4 adds the `anchor` event, one per draw of a
// cluster's anchor under a random anchor rule (draws_anchors); version 3 has every other event and
// field. A run under a rule that draws no anchor is written as version 3, byte for byte what it
// always was (its version-4 trace would differ only in the number), so that a reader of version 3
// reads it; a run that draws anchors is written as version 4 (trace_version). Version 2 has
// version 3's fields, but a header without "rules" means the paper's rules of then,
// self-pairs=off (S4); version 1 (the Phase-2 words `anchor`, `anchor_answer`, `search_anchor`,
// and the oracle as free text) reads the same way. All are still read: docs/trace-format.md,
// "Earlier versions".
inline constexpr int kTraceVersion = 4;
// The version written for a run whose anchor rule draws nothing (opener, lowest-labelled-row).
inline constexpr int kTraceVersionFixedAnchors = 3;
// The version a trace of a run with these parameters is written in.
inline int trace_version(const Params& p) {
  return draws_anchors(p.rules.anchor) ? kTraceVersion : kTraceVersionFixedAnchors;
}

// SHA-256 (FIPS 180-4) of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

// The canonical byte form of a point set (docs/trace-format.md, "Fingerprint"): the ASCII tag
// "ssac-points-v1\n", n and m as unsigned 64-bit little-endian integers, then the n*m coordinates
// row by row as IEEE-754 binary64 little-endian, with -0.0 written as +0.0 (the two are the same
// point, and a CSV reader may produce either).
std::string canonical_points(const Matrix& X);
// "sha256:" followed by sha256_hex(canonical_points(X)).
std::string points_fingerprint(const Matrix& X);

// What the header records besides the data: the run's parameters, and for people reading the
// trace, where the answers came from (not used by the replay).
struct TraceHeader {
  Params params;
  std::string algorithm = "weak";  // "weak" (this paper) or "original" (search must be plain)
  // The oracle that answered, written as the header's `oracle` object (kind and the parameters the
  // kind uses); nullopt when it is none this format describes (a Python callable), which omits it.
  // Information only: the replay takes the trace's answers.
  std::optional<OracleSpec> oracle;
  std::optional<std::uint64_t> seed;
  // The random-weak oracle's memory, which Definition 5 leaves open (proofs-notes/
  // oracle-independence.md). Written as "oracle_memory" only when it is not fresh, so a trace of
  // the default reads as before; the replay enforces it: under per-pair memory every pair asked
  // again, in either order, must get the answer it got first.
  OracleMemory memory = OracleMemory::fresh;
  // The rules replayed under when the header ("semantics", "rules") or the caller (ssac validate
  // --semantics/--rule) chose them: "paper", "authors-code", or "custom rules anchor=... " (
  // profile_name and describe, ssac/rules.hpp); "" for the default of the trace's version. Set by
  // the reader, never written.
  std::string profile;
};

// Receives one event of a trace: a line of JSON, without its '\n'.
using TraceLine = std::function<void(const std::string& line)>;

// The trace writer: an observer to pass to run_ssac that hands `line` each event of the run the
// moment the run reports it. The header goes out at once, the final event when the run finishes.
std::unique_ptr<RunObserver> trace_writer(const Matrix& X, const TraceHeader& header,
                                          TraceLine line);

// Tolerance of every floating-point comparison in a replay: |a - b| <= kTraceTolerance *
// max(1, |a|, |b|). Another implementation may sum a mean or a distance in another order; the
// reference's own results are compared bit for bit by the regeneration tests instead.
inline constexpr double kTraceTolerance = 1e-9;

struct Divergence {
  std::size_t event = 0;  // 1-based event number = line number in the trace
  int iteration = 0;      // 0 for the header and the final event
  int phase = 0;          // 1, 2, or 0 outside a phase
  std::string what;       // the field or event that differs
  std::string expected, found;
  bool near_tie =
      false;            // the difference is an order of points whose distances are within tolerance
  std::string message;  // one line: all of the above
};

struct ValidationReport {
  int version = kTraceVersion;  // the trace's format version (1 is read with its own field names)
  bool conforms = true;
  std::size_t events = 0;   // events in the trace
  std::size_t queries = 0;  // query events compared
  // The profile replayed under, as TraceHeader::profile names it ("" for the version's default).
  std::string profile;
  // Exact ties in Phase 2's distance order (S6) that the trace broke otherwise than by row and the
  // replay followed (ReplayOptions::follow_ties): one per tie group of one iteration whose order
  // the trace changed.
  std::size_t ties = 0;
  std::optional<Divergence> divergence;
};

// Told each random choice of a replayed run as the reference consumes it, in run order, with what
// its exact law depends on (ssac/choice_law.hpp tests the law over many traces). Called only while
// the run follows the trace: after a divergence the choices are no longer the trace's.
class ChoiceSink {
 public:
  virtual ~ChoiceSink() = default;
  // The trace's header, before any choice.
  virtual void header(const TraceHeader& h) { (void)h; }
  // A draw: `position` in `pool` as the Chooser received it (ssac/ssac.hpp) holds the recorded
  // row (its first occurrence, for B's multiset pool). `block` numbers the sample the draw belongs
  // to: one Phase-1 sample Z (Algorithm 1, line 4) or one B (Algorithms 2 and 4), in run order;
  // an anchor draw (Draw::anchor) is a sample of one, numbered apart from these.
  virtual void drawn(Draw what, const std::vector<std::size_t>& pool, std::size_t position,
                     std::size_t block) = 0;
  // The oracle's recorded answer to Q(x, y).
  virtual void answered(std::size_t x, std::size_t y, Answer a) = 0;
};

// What a replay knows besides the trace and the points.
struct ReplayOptions {
  // The number of clusters of the data's labels, 0 when the data has none. Elimination (S2, rule
  // 5) applies only when k is the oracle's number of clusters: a header without `oracle_clusters`
  // is replayed with this number, and one whose `oracle_clusters` (or, absent, k) differs from it
  // is refused.
  int label_clusters = 0;
  // Orders equal distances by decreasing row, the opposite of S6. Not a rule of any run: the
  // conformance generator replays each vector under it to flag those that depend on S6.
  bool reversed_ties = false;
  // Follows the trace's order among rows at exactly equal distance from mu'_p (bit for bit), where
  // S6's rule by row is the reference's choice and the paper leaves it free: a trace that puts such
  // a row at a probed position (cluster.x1, a step's row) or assigns it (an outcome under
  // phase2=prefix) is replayed with that order (ValidationReport::ties counts them). A row at
  // another distance is never moved. Ignored under reversed_ties.
  bool follow_ties = true;
  // The rules for a trace whose header names none ("semantics", "rules"): `ssac validate
  // --semantics/--rule`, as replay_profile makes them. A header that names other rules than these
  // is refused (ParameterError).
  std::optional<Profile> profile;
  // When set, told every choice of the replayed run (not owned).
  ChoiceSink* choices = nullptr;
};

// ReplayOptions::profile from `ssac validate --semantics NAME --rule R ...` (and ssac.validate's
// semantics= and rules=): NAME's whole profile (proofs-notes/semantics.md S9; "paper" when NAME is
// empty) with each rule R set on top, as for a run on given rows; none when both are empty, so
// that the trace's header decides. Throws ParameterError for an unknown name or rule.
std::optional<Profile> replay_profile(const std::string& semantics,
                                      const std::vector<std::string>& rules);

// Replays the trace `text` (named `name` in messages) on the points X: the reference runs on the
// trace's draws and answers, and an observer compares each event it reports with the trace's next
// one. Throws DataError with "NAME:LINE: message" when the trace does not parse, breaks the
// format, or was written for other data (fingerprint, n or m, or labels of another number of
// clusters than the header's); a well-formed trace that the reference does not reproduce gives a
// report with the first divergence.
ValidationReport validate_trace(const Matrix& X, const std::string& text, const std::string& name,
                                const ReplayOptions& options = {});

// validate_trace on the trace in the file at `path` (named by its path in messages), read in two
// streaming passes without holding its text: memory grows with the trace's draws and queries (the
// replay needs them before the reference asks), not with the length of its text, and no line may
// exceed the cap of docs/trace-format.md ("Reading a trace"). A FIFO or pipe is copied to a
// temporary file for the second pass; a FIFO with no writer reads as an empty trace.
ValidationReport validate_trace_file(const Matrix& X, const std::string& path,
                                     const ReplayOptions& options = {});

}  // namespace ssac
