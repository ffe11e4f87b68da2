// The terminal face of a labelling session (terminal.hpp): prompt, item display, undo and the
// progress line, over the same session engine as the web page.
#include "label/terminal.hpp"

#include <algorithm>
#include <cstdio>
#include <istream>
#include <ostream>

#include "ssac/error.hpp"

namespace ssac::cli {

std::string progress_line(const Session& s) {
  const SessionProgress p = s.progress();
  char interval[64];
  std::snprintf(interval, sizeof interval, "%.2f-%.2f", p.not_sure_low, p.not_sure_high);
  std::string line = s.finished() ? "done: " + std::to_string(p.questions) + " answered"
                                  : "question " + std::to_string(p.questions + 1) + ": " +
                                        std::to_string(p.questions) + " answered, at most " +
                                        std::to_string(p.max_remaining) + " more (Corollary 8)";
  return line + "; not sure " + std::to_string(p.not_sure) + " of " + std::to_string(p.questions) +
         " (95% interval " + interval + ")";
}

void ask_at_terminal(Session& s, const ItemView& view, std::istream& in, std::ostream& out,
                     AnswerFile* file) {
  while (!s.finished()) {
    const auto [x, y] = s.question();
    out << progress_line(s) << "\nAre these two in the same cluster?\n  row " << x << ":\n"
        << view.text(x) << "  row " << y << ":\n"
        << view.text(y)
        << "Answer y (same), n (different), ? (not sure), u (undo), u N (back to question N): "
        << std::flush;
    std::string line;
    if (!std::getline(in, line))
      throw DataError("interactive oracle: input ended after " + std::to_string(s.log().size()) +
                      " answers (every answer given so far is in the answer log, if one was set)");
    std::string t;
    for (char c : line)
      if (c != ' ' && c != '\t' && c != '\r') t += c;
    if (!t.empty() && (t[0] == 'u' || t[0] == 'U')) {
      std::size_t keep = s.log().size();
      if (t.size() == 1) {
        keep = s.log().empty() ? 0 : s.log().size() - 1;
      } else {
        try {
          keep = static_cast<std::size_t>(std::stoull(t.substr(1))) - 1;
        } catch (const std::exception&) {
          keep = s.log().size();
        }
      }
      if (s.log().empty() || keep >= s.log().size()) {
        out << (s.log().empty()
                    ? "Nothing to undo yet.\n"
                    : "Type u, or u N with N from 1 to " + std::to_string(s.log().size()) + ".\n");
        continue;
      }
      s.undo(keep);
      if (file) file->rewrite(s.log());
      out << "Back to question " << (keep + 1) << ".\n";
      continue;
    }
    Answer a;
    if (!parse_answer(line, a)) {
      out << "Please type y, n, ? or u.\n";
      continue;
    }
    // Saved before the session moves on: an answer the file lacks is never taken.
    if (file) file->append({std::min(x, y), std::max(x, y), a}, s.log().size() + 1);
    s.answer(a);
  }
  out << progress_line(s) << "\n";
}

}  // namespace ssac::cli
