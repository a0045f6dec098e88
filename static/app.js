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
