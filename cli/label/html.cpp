// HTML whose text is escaped by construction (html.hpp).
#include "label/html.hpp"

namespace ssac::cli {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

Html Html::fill(Markup page, std::initializer_list<Slot> values) {
  const std::string_view p = page.view();
  Html out;
  std::size_t from = 0;
  for (;;) {
    // The earliest marker at or after `from`.
    std::size_t at = std::string_view::npos;
    const Slot* which = nullptr;
    for (const auto& v : values) {
      const std::size_t i = p.find(v.marker.view(), from);
      if (i < at) {
        at = i;
        which = &v;
      }
    }
    out.out_ += p.substr(from, at - from);
    if (!which) return out;
    out.out_ += which->value->out_;
    from = at + which->marker.view().size();
  }
}

}  // namespace ssac::cli
