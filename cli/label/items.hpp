// How a labelling session shows an item (a row of the data) to the person: chosen columns as
// text (--show), the coordinates drawn as a W x H grey image (--image WxH, e.g. sklearn's 8 x 8
// digits), or else the coordinates.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "label/html.hpp"
#include "ssac/data.hpp"

namespace ssac::cli {

// The data of a labelling session: the coordinates (and labels, when the file has them) and the
// columns named in --show whose values are not all numbers, which are shown but are no
// coordinates.
struct LabelData {
  Dataset data;
  std::vector<std::string> text_names;
  std::vector<std::vector<std::string>> text;  // text[row][column]
};

// Reads a CSV as read_csv does, except that the columns named in `show` may hold any text (kept
// for display, RFC 4180 with line breaks inside quotes, UTF-8 only; a shown column whose every
// value is a number stays a coordinate). Throws DataError "FILE:LINE:COLUMN: ..." or ParameterError
// for a --show name that is no column.
LabelData read_label_csv(const std::string& path, const std::vector<std::string>& show);

// A cell as the terminal may show it: a text column's cell can hold any UTF-8, and a control
// character written to a terminal moves the cursor, clears the screen or retitles the window
// (ESC, CR, the C1 control CSI). C0 controls but tab and line break, and DEL, are written \xHH;
// the C1 controls U+0080..U+009F \u00HH; a line break goes on with `indent`.
std::string terminal_text(std::string_view s, std::string_view indent);

class ItemView {
 public:
  // `show`: the column names to show (text or coordinates), empty for none; `image`: "WxH" or
  // empty. ParameterError naming the option when a name is unknown or W x H exceeds m.
  ItemView(const LabelData& d, const std::vector<std::string>& show, const std::string& image);
  // "name = value" per shown column, or the coordinates when there are none and no image.
  std::vector<std::pair<std::string, std::string>> fields(std::size_t row) const;
  bool has_image() const { return w_ > 0; }
  int width() const { return w_; }
  int height() const { return h_; }
  // The image's grey levels in [0, 1] (0 black... 1 white is the page's choice), row-major.
  std::vector<double> pixels(std::size_t row) const;
  // The item as terminal lines: the fields (terminal_text), then the image in characters from
  // light to dark.
  std::string text(std::size_t row) const;
  // The item as an HTML fragment: every text escaped, the image as an inline SVG.
  Html html(std::size_t row, int pixel_size) const;

 private:
  const LabelData& d_;
  std::vector<std::pair<bool, std::size_t>> columns_;  // (is text, index)
  std::vector<std::string> names_;
  int w_ = 0, h_ = 0;
  double lo_ = 0, hi_ = 1;
};

}  // namespace ssac::cli
