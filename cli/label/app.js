// Single keys for the buttons of the labelling page: y same, n different, space or ? not sure,
// u undo (on the end page: take back the last answer). A key submits the same form a click does;
// after one key the page ignores the others until the next page arrives (the server refuses a
// second answer to the same question anyway). While a button, link or field has the focus (Tab
// put it there) the keys are the browser's: Space and Enter press that control, not another one;
// Escape gives the keys back to the page.
(function () {
  "use strict";
  var keys = { "y": "answer-yes", "n": "answer-no", " ": "answer-not-sure", "?": "answer-not-sure",
               "u": "undo" };
  var sent = false;
  function focused_control() {
    var f = document.activeElement;
    return f && f !== document.body && f.matches("button, a[href], input, select, textarea");
  }
  document.addEventListener("keydown", function (e) {
    if (sent || e.ctrlKey || e.metaKey || e.altKey) return;
    if (focused_control()) {
      if (e.key === "Escape") document.activeElement.blur();
      return;
    }
    var id = keys[e.key];
    if (!id) return;
    var button = document.getElementById(id);
    if (!button) return;
    e.preventDefault();
    sent = true;
    button.form.requestSubmit(button);
  });
})();
