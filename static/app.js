// Small enhancements on top of plain forms and htmx; the game works without any of this.
(function () {
  "use strict";

  // Arrow keys move between the squares of the board, as in a grid.
  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest(".cell");
    if (!cell) return;
    var steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -3, ArrowDown: 3 };
    if (!(event.key in steps)) return;
    var index = Number(cell.value) + steps[event.key];
    var sameRow = Math.floor(index / 3) === Math.floor(Number(cell.value) / 3);
    if (index < 0 || index > 8 || (Math.abs(steps[event.key]) === 1 && !sameRow)) return;
    var next = document.getElementById("cell-" + index);
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  // When the server cannot be reached, say so where the player is looking.
  function showProblem(text) {
    var message = document.querySelector(".play .message");
    if (!message) return;
    message.textContent = text;
    message.className = "message is-error";
    message.setAttribute("role", "alert");
  }
  document.addEventListener("htmx:sendError", function () {
    showProblem("The game could not reach the server. Check your connection and try again.");
  });
  document.addEventListener("htmx:responseError", function () {
    showProblem("Something went wrong on our side. Please try again.");
  });
})();

// --- Move history and links (issue 10): arrow keys in the move list, and "Copy link". ----------
// Without this the list is plain links and the address stays on the page, ready to select.
(function () {
  "use strict";

  var STEPS = { ArrowLeft: "step-back", ArrowUp: "step-back", ArrowRight: "step-forward", ArrowDown: "step-forward", Home: "step-start", End: "step-end" };
  var stepping = false;

  // In the move list, the arrow keys step through the game as the Back and Forward buttons do.
  document.addEventListener("keydown", function (event) {
    var list = event.target.closest && event.target.closest(".move-list");
    if (!list || !(event.key in STEPS)) return;
    var step = document.getElementById(STEPS[event.key]);
    event.preventDefault();
    if (!step || !step.hasAttribute("href")) return;
    stepping = true;
    step.click();
  });

  // After a step from the keyboard, keep the focus on the move now shown, so the keys go on working.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!stepping || !event.target || event.target.id !== "review-view") return;
    stepping = false;
    var current = document.querySelector("#review-view .move-list [aria-current='step']");
    if (current) current.focus();
  });

  // "Copy link" copies the address shown beside it; the button only exists for those with JavaScript.
  function showCopyButtons() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", showCopyButtons);
  document.addEventListener("htmx:afterSettle", showCopyButtons);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    var note = button.closest(".share") && button.closest(".share").querySelector(".share-note");
    function say(text) {
      if (note) note.textContent = text;
    }
    function fallback() {
      field.select();
      say(document.execCommand && document.execCommand("copy") ? "Link copied." : "Select the address and copy it.");
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { say("Link copied."); }, fallback);
    } else {
      fallback();
    }
  });
})();
