// Single keys for the buttons of the labelling page: y same, n different, space or ? not sure,
// u undo. A key submits the same form a click does; after one key the page ignores the others
// until the next page arrives (the server refuses a second answer to the same question anyway).
(function () {
  "use strict";
  var keys = { "y": "answer-yes", "n": "answer-no", " ": "answer-not-sure", "?": "answer-not-sure",
               "u": "undo" };
  var sent = false;
  document.addEventListener("keydown", function (e) {
    if (sent || e.ctrlKey || e.metaKey || e.altKey) return;
    var id = keys[e.key];
    if (!id) return;
    var button = document.getElementById(id);
    if (!button) return;
    e.preventDefault();
    sent = true;
    button.form.requestSubmit(button);
  });
})();
