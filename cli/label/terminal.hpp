// The terminal face of a labelling session (ssac cluster --oracle interactive): the same session
// engine as the web page (ssac/session.hpp), the same item display, undo and progress.
#pragma once

#include <iosfwd>
#include <string>

#include "label/answer_file.hpp"
#include "label/items.hpp"
#include "ssac/session.hpp"

namespace ssac::cli {

// "question 12: 11 answered, at most 498 more (Corollary 8); not sure 3 of 11 (95% interval
// 0.06-0.52)": the progress line both faces show.
std::string progress_line(const Session& s);

// Asks the session's questions on `out`, reading y / n / ? (not sure) / u (undo the last answer) /
// u N (back to question N) from `in`, until the run is over. Every answer is appended to `file`
// (when given) before the next question; an undo rewrites it. Throws DataError "interactive oracle:
// input ended after N answers" when `in` ends first.
void ask_at_terminal(Session& s, const ItemView& view, std::istream& in, std::ostream& out,
                     AnswerFile* file);

}  // namespace ssac::cli
