// HTML whose text is escaped by construction. An Html value grows only by markup written in the
// program (Markup: a string literal or another constant expression, checked at compile time), by
// text (Text, escaped as it is appended), by whole numbers, or by another Html value. No function
// takes a run-time string as markup, so text that was not escaped does not compile.
#pragma once

#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace ssac::cli {

// &, <, >, " and ' as character references: safe between tags and inside a quoted attribute.
std::string html_escape(std::string_view s);

// Markup the program itself writes. consteval: the pointer must be a constant expression (a
// literal, a compiled-in asset), so data read at run time can never become markup.
class Markup {
 public:
  consteval Markup(const char* s) : text_(s) {}
  std::string_view view() const { return text_; }

 private:
  std::string_view text_;
};

// Text to be shown: escaped when it is appended to an Html value.
struct Text {
  explicit Text(std::string_view s) : text(s) {}
  std::string_view text;
};

class Html {
 public:
  Html() = default;
  Html& operator<<(Markup m) {
    out_ += m.view();
    return *this;
  }
  Html& operator<<(Text t) {
    out_ += html_escape(t.text);
    return *this;
  }
  // A whole number's digits hold nothing to escape.
  template <class I>
  requires std::integral<I> &&(!std::same_as<I, char>)&&(!std::same_as<I, bool>)Html& operator<<(
      I n) {
    out_ += std::to_string(n);
    return *this;
  }
  Html& operator<<(const Html& h) {
    out_ += h.out_;
    return *this;
  }
  const std::string& str() const { return out_; }

  // A marker of a page (e.g. "{{body}}") and what replaces it.
  struct Slot {
    Markup marker;
    const Html* value;
  };
  // `page` with each marker replaced by its value, in one pass over the page: a marker is looked
  // for in the page only, never in a value already put in.
  static Html fill(Markup page, std::initializer_list<Slot> values);

 private:
  std::string out_;
};

}  // namespace ssac::cli
