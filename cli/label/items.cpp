// How a labelling session shows an item (items.hpp): chosen columns as text, pixel rows as a
// W x H grey image, or the coordinates; every text escaped for the page.
#include "label/items.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string_view>

#include "ssac/csv.hpp"
#include "ssac/error.hpp"
#include "ssac/input.hpp"

namespace ssac::cli {

namespace {

bool numeric(const std::string& s) {
  double v;
  const char* b = s.data();
  if (!s.empty() && s[0] == '+') ++b;
  auto r = std::from_chars(b, s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

LabelData read_label_csv(const std::string& path, const std::vector<std::string>& show) {
  static const InputKind kind{"cannot open the data file", "is a directory, not a CSV file",
                              kMaxCsvBytes, "longer than the most a CSV file may hold"};
  const std::string text = read_input(path, kind);
  if (show.empty()) return {parse_csv(text, path), {}, {}};
  // Which shown columns hold text: a first look at the records (the library's tokenizer, line
  // breaks allowed inside quotes), then the library's reader with those columns as text.
  const std::size_t start = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  csv::Reader reader(std::string_view(text).substr(start), path, true);
  std::vector<csv::Field> fields;
  std::vector<std::string> header;
  std::vector<char> is_text;
  auto trim = [](std::string_view t) {
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t'))
      t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t'))
      t.remove_suffix(1);
    return std::string(t);
  };
  if (reader.next(fields))
    for (const auto& f : fields)
      header.push_back(trim(f.text));
  if (header.size() < 2 && (header.empty() || header[0].empty()))
    return {parse_csv(text, path), {}, {}};  // no header: the reader's own message
  for (const auto& name : show)
    if (std::find(header.begin(), header.end(), name) == header.end())
      throw ParameterError("--show: " + path + " has no column '" + name + "'");
  is_text.assign(header.size(), 0);
  while (reader.next(fields))
    for (std::size_t c = 0; c < fields.size() && c < header.size(); ++c)
      if (!is_text[c] && std::find(show.begin(), show.end(), header[c]) != show.end() &&
          !numeric(trim(fields[c].text)))
        is_text[c] = 1;
  CsvText columns;
  for (std::size_t c = 0; c < header.size(); ++c)
    if (is_text[c]) columns.names.push_back(header[c]);
  LabelData d;
  d.data = parse_csv(text, path, &columns);
  d.text_names = std::move(columns.header);
  d.text = std::move(columns.rows);
  return d;
}

ItemView::ItemView(const LabelData& d, const std::vector<std::string>& show,
                   const std::string& image)
    : d_(d) {
  for (const auto& name : show) {
    auto t = std::find(d.text_names.begin(), d.text_names.end(), name);
    if (t != d.text_names.end()) {
      columns_.push_back({true, static_cast<std::size_t>(t - d.text_names.begin())});
    } else {
      auto c = std::find(d.data.column_names.begin(), d.data.column_names.end(), name);
      if (c == d.data.column_names.end())
        throw ParameterError("--show: no column '" + name + "' among the data's columns");
      columns_.push_back({false, static_cast<std::size_t>(c - d.data.column_names.begin())});
    }
    names_.push_back(name);
  }
  if (!image.empty()) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    std::istringstream in(image);
    if (!(in >> w >> x >> h) || x != 'x' || (in >> extra) || w < 1 || h < 1 || w > 4096 || h > 4096)
      throw ParameterError("--image = " + image + ": expected WxH, e.g. 8x8 (1..4096 each)");
    if (static_cast<std::size_t>(w) * static_cast<std::size_t>(h) > d.data.m())
      throw ParameterError("--image = " + image + ": " + std::to_string(w * h) +
                           " pixels but the data has " + std::to_string(d.data.m()) +
                           " coordinates");
    w_ = w;
    h_ = h;
    const auto pix = static_cast<Eigen::Index>(w * h);
    if (d.data.n() > 0) {
      lo_ = d.data.points.leftCols(pix).minCoeff();
      hi_ = d.data.points.leftCols(pix).maxCoeff();
    }
    if (!(hi_ > lo_)) hi_ = lo_ + 1;
  }
}

std::vector<std::pair<std::string, std::string>> ItemView::fields(std::size_t row) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const auto [is_text, c] = columns_[i];
    out.emplace_back(names_[i], is_text
                                    ? d_.text[row][c]
                                    : format_double(d_.data.points(static_cast<Eigen::Index>(row),
                                                                   static_cast<Eigen::Index>(c))));
  }
  if (columns_.empty() && !has_image()) {
    std::string coords;
    for (std::size_t c = 0; c < d_.data.m(); ++c)
      coords += (c ? ", " : "") + format_double(d_.data.points(static_cast<Eigen::Index>(row),
                                                               static_cast<Eigen::Index>(c)));
    out.emplace_back("coordinates", "(" + coords + ")");
  }
  return out;
}

std::vector<double> ItemView::pixels(std::size_t row) const {
  std::vector<double> out;
  for (int i = 0; i < w_ * h_; ++i)
    out.push_back((d_.data.points(static_cast<Eigen::Index>(row), i) - lo_) / (hi_ - lo_));
  return out;
}

std::string terminal_text(std::string_view s, std::string_view indent) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += '\n';
      out += indent;
    } else if ((c < 0x20 && c != '\t') || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      // U+0080..U+009F, the C1 controls: CSI (U+009B) opens an escape sequence on some terminals.
      const auto d = static_cast<unsigned char>(s[++i]);
      out += "\\u00";
      out += hex[d >> 4];
      out += hex[d & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string ItemView::text(std::size_t row) const {
  std::string out;
  for (const auto& [name, value] : fields(row))
    out += "    " + terminal_text(name, "      ") + ": " + terminal_text(value, "      ") + "\n";
  if (has_image()) {
    static const char shades[] = " .:-=+*#%@";
    const auto p = pixels(row);
    for (int y = 0; y < h_; ++y) {
      out += "    ";
      for (int x = 0; x < w_; ++x) {
        const int s =
            std::clamp(static_cast<int>(p[static_cast<std::size_t>(y * w_ + x)] * 9.999), 0, 9);
        out += shades[s];
        out += shades[s];
      }
      out += "\n";
    }
  }
  return out;
}

Html ItemView::html(std::size_t row, int px) const {
  Html out;
  if (has_image()) {
    const auto p = pixels(row);
    out << "<svg class=\"item-image\" width=\"" << w_ * px << "\" height=\"" << h_ * px
        << "\" viewBox=\"0 0 " << w_ << " " << h_
        << "\" shape-rendering=\"crispEdges\" role=\"img\">";
    for (int y = 0; y < h_; ++y)
      for (int x = 0; x < w_; ++x) {
        // Dark ink on white paper: the largest value is black.
        const int g = 255 - static_cast<int>(p[static_cast<std::size_t>(y * w_ + x)] * 255.0 + 0.5);
        out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"1\" height=\"1\" fill=\"rgb(" << g
            << "," << g << "," << g << ")\"/>";
      }
    out << "</svg>";
  }
  const auto f = fields(row);
  if (!f.empty()) {
    out << "<dl class=\"item-fields\">";
    for (const auto& [name, value] : f)
      out << "<dt>" << Text(name) << "</dt><dd>" << Text(value) << "</dd>";
    out << "</dl>";
  }
  return out;
}

}  // namespace ssac::cli
