// The one CSV tokenizer (ssac/csv.hpp).
#include "ssac/csv.hpp"

#include "ssac/error.hpp"

namespace ssac::csv {

std::string where(const std::string& name, std::size_t line, std::size_t column) {
  return name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string field(std::string_view text) {
  return text.find_first_of(",\"\n\r") == std::string_view::npos ? std::string(text) : quoted(text);
}

Reader::Reader(std::string_view text, std::string name, bool multiline, std::size_t first_line)
    : text_(text), name_(std::move(name)), multiline_(multiline), line_(first_line) {}

void Reader::reset(std::string_view text, std::size_t first_line) {
  text_ = text;
  pos_ = line_start_ = record_line_ = 0;
  line_ = first_line;
  reduced_.clear();
}

bool Reader::next(std::vector<Field>& fields) {
  fields.clear();
  reduced_.clear();
  if (pos_ > text_.size() || (pos_ == text_.size() && pos_ > 0 && text_[pos_ - 1] == '\n'))
    return false;
  record_line_ = line_;
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  for (;;) {
    // One field from pos_: blanks, then a quoted or a plain field, then blanks.
    std::size_t p = pos_;
    while (p < text_.size() && blank(text_[p]))
      ++p;
    Field f{std::string_view(), line_, p - line_start_ + 1, false};
    std::size_t end = p;  // where the field's trailing part ends (at a comma, line end or EOF)
    if (p < text_.size() && text_[p] == '"') {
      f.quoted = true;
      const std::size_t open_line = line_, open_col = f.column;
      std::size_t q = p + 1, from = q;
      std::string* owned = nullptr;
      for (;;) {
        const std::size_t at = text_.find_first_of("\"\n", q);
        if (at == std::string_view::npos)
          throw DataError(where(name_, open_line, open_col) +
                          "the quoted field opened here is not closed by the end of the file");
        if (text_[at] == '\n') {
          if (!multiline_)
            throw DataError(where(name_, open_line, open_col) +
                            "the quoted field opened here runs past the end of its line (a line "
                            "break inside a field is allowed only in ssac label's text columns)");
          ++line_;
          line_start_ = at + 1;
          q = at + 1;
          continue;
        }
        if (at + 1 < text_.size() && text_[at + 1] == '"') {  // "" stands for one quote
          if (!owned) owned = &reduced_.emplace_back();
          owned->append(text_.substr(from, at + 1 - from));
          q = from = at + 2;
          continue;
        }
        if (owned) {
          owned->append(text_.substr(from, at - from));
          f.text = *owned;
        } else {
          f.text = text_.substr(from, at - from);
        }
        end = at + 1;
        break;
      }
      while (end < text_.size() && blank(text_[end]))
        ++end;
      if (end < text_.size() && text_[end] == '\r' &&
          (end + 1 == text_.size() || text_[end + 1] == '\n'))
        ++end;
      if (end < text_.size() && text_[end] != ',' && text_[end] != '\n')
        throw DataError(where(name_, line_, end - line_start_ + 1) +
                        "text after the closing quote of a quoted field (a quote inside a quoted "
                        "field is written \"\")");
    } else {
      end = text_.find_first_of(",\n", p);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view t = text_.substr(p, end - p);
      if (!t.empty() && t.back() == '\r' && (end == text_.size() || text_[end] == '\n'))
        t.remove_suffix(1);
      while (!t.empty() && blank(t.back()))
        t.remove_suffix(1);
      const std::size_t quote = t.find('"');
      if (quote != std::string_view::npos)
        throw DataError(where(name_, line_, p + quote - line_start_ + 1) +
                        "a double quote inside a field that does not start with one (quote the "
                        "whole field and write the quote \"\")");
      f.text = t;
    }
    fields.push_back(f);
    if (end >= text_.size()) {
      pos_ = text_.size() + 1;
      return true;
    }
    if (text_[end] == '\n') {
      pos_ = end + 1;
      ++line_;
      line_start_ = pos_;
      return true;
    }
    pos_ = end + 1;  // a comma: the next field
  }
}

}  // namespace ssac::csv
