// Small enhancements on top of plain forms and htmx; the game works without any of this.
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var SLOW_MS = 150; // a move not answered by then is said to be on its way
  var busy = false; // a request from the game is on its way and its answer not yet drawn
  var swapping = false; // its answer will be drawn (htmx swaps it)
  var waiting = null; // the id of a button clicked while busy, clicked again once the answer is drawn
  var pending = null; // the move being sent: { cell, marks, timer }
  var refused = null; // what to tell the player about a click refused while busy
  var sent = null; // the id of the button whose request is on its way
  var ONE_AT_A_TIME = "One move at a time: that square was not played.";

  function game() {
    return document.querySelector(".game");
  }

  function board() {
    return document.getElementById("board");
  }

  function cells() {
    return Array.prototype.slice.call(document.querySelectorAll("#board .cell"));
  }

  function marksOn(text) {
    return (text || "").replace(/\./g, "").length;
  }

  function isOpen(cell) {
    return cell && cell.getAttribute("aria-disabled") !== "true";
  }

  function say(text) {
    var message = document.querySelector(".play p.message");
    if (!message) {
      // At the end of a game the slot holds Play again, or a question: the message goes in its place.
      var slot = document.querySelector(".play .slot");
      if (!slot) return;
      message = document.createElement("p");
      slot.replaceChildren(message);
    }
    message.textContent = text;
    message.className = "message is-error";
    message.setAttribute("role", "alert");
  }

  // --- the board is one Tab stop; arrows, Home and End move inside it ------------------------

  var lastFocused = null;

  function rove() {
    var all = cells();
    if (!all.length) return;
    var active = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board .cell");
    var keep = active || document.getElementById("cell-" + lastFocused) || all.filter(isOpen)[0] || all[0];
    all.forEach(function (cell) {
      cell.tabIndex = cell === keep ? 0 : -1;
    });
  }

  document.addEventListener("focusin", function (event) {
    var cell = event.target.closest && event.target.closest("#board .cell");
    if (!cell) return;
    lastFocused = cell.value;
    rove();
  });

  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest("#board .cell");
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    var all = cells();
    var size = Math.round(Math.sqrt(all.length));
    var index = all.indexOf(cell);
    var row = Math.floor(index / size);
    var target = {
      ArrowLeft: index % size ? index - 1 : null,
      ArrowRight: index % size < size - 1 ? index + 1 : null,
      ArrowUp: row > 0 ? index - size : null,
      ArrowDown: row < size - 1 ? index + size : null,
      Home: 0,
      End: all.length - 1,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    if (target !== null) all[target].focus();
  });

  // --- shortcuts: N new game, U undo, H hint ----------------------------------------------------

  var SHORTCUTS = { n: ["again-button", "new-game-button"], u: ["undo-button"], h: ["hint-button"] };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
    var ids = SHORTCUTS[event.key.toLowerCase()];
    if (!ids || !game()) return;
    var button = ids.map(function (id) { return document.getElementById(id); }).filter(Boolean)[0];
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });

  // --- every form stamps the game the player saw; every click counts or is refused aloud -------

  // The game field may sit outside its form (joined by the form attribute): form.elements finds it.
  function stamp(form) {
    var seen = board() && board().getAttribute("data-game");
    var field = form && form.elements.namedItem("game");
    if (seen && field && field.value !== undefined) field.value = seen;
  }

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest(".game button[type='submit']");
      if (!button || !button.form) return;
      var cell = button.closest("#board .cell");
      if (busy) {
        // The answer to the request before will redraw the page, and htmx would drop a click
        // queued on a part it removes: hold the click, and make it once the answer is drawn.
        event.preventDefault();
        event.stopPropagation();
        if (button.id && button.id === sent) return; // a double click: the first one counts
        if (cell && pending) {
          // A second square before the answer to the first: refused, and said again once the answer is drawn.
          if (Number(cell.value) !== pending.cell) {
            refused = ONE_AT_A_TIME;
            say(refused);
          }
          return;
        }
        waiting = button.id;
        return;
      }
      sent = button.id;
      stamp(button.form);
      if (cell && isOpen(cell) && board().getAttribute("data-status") === "playing") markPending(cell);
    },
    true
  );

  document.addEventListener(
    "change",
    function (event) {
      if (!event.target.closest || !event.target.closest(".game")) return;
      if (!busy) sent = null;
      stamp(event.target.form);
    },
    true
  );

  // The mark appears at once, with a pending look, until the server's board replaces it.
  function markPending(cell) {
    var shown = board().getAttribute("data-board") || "";
    var xs = (shown.match(/X/g) || []).length;
    var os = (shown.match(/O/g) || []).length;
    var side = xs > os ? "o" : "x";
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "mark mark-" + side);
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    if (side === "x") {
      var path = document.createElementNS(svg.namespaceURI, "path");
      path.setAttribute("d", "M26 26L74 74M74 26L26 74");
      svg.appendChild(path);
    } else {
      var circle = document.createElementNS(svg.namespaceURI, "circle");
      circle.setAttribute("cx", "50");
      circle.setAttribute("cy", "50");
      circle.setAttribute("r", "26");
      svg.appendChild(circle);
    }
    cell.prepend(svg);
    cell.classList.add("is-pending");
    board().classList.add("is-pending");
    board().setAttribute("aria-busy", "true");
    pending = {
      cell: Number(cell.value),
      marks: marksOn(shown),
      timer: setTimeout(function () {
        if (!pending || !board()) return;
        board().classList.add("is-slow");
        var status = document.querySelector("#status .status-text");
        if (status) status.textContent = "Sending your move…";
      }, SLOW_MS),
    };
  }

  function clearPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending = null;
    var shown = board();
    if (!shown) return;
    shown.classList.remove("is-pending", "is-slow");
    shown.removeAttribute("aria-busy");
    document.querySelectorAll("#board .cell.is-pending").forEach(function (cell) {
      cell.classList.remove("is-pending");
      var mark = cell.querySelector(".mark");
      if (mark) mark.remove();
    });
  }

  // htmx fires its events on the element that made the request (which a swap may have taken out
  // of the page, and whose events then never reach the document) or on the swapped target.
  function inGame(event) {
    return Boolean(event.target && event.target.closest && event.target.closest(".game"));
  }

  var wasPlaying = false; // the game went on when the request left: a win in its answer is new

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!inGame(event)) return;
    busy = true;
    swapping = false;
    wasPlaying = Boolean(board()) && board().getAttribute("data-status") === "playing";
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!inGame(event) || !event.detail.shouldSwap) return;
    swapping = true;
    if (!pending || typeof event.detail.serverResponse !== "string") return;
    // A board with two more marks than before the click holds the computer's reply: it lands
    // after a short beat (see .is-reply in app.css), so that it reads as a turn.
    var answer = event.detail.serverResponse;
    var drawn = /data-board="([^"]*)"/.exec(answer);
    if (drawn && marksOn(drawn[1]) === pending.marks + 2) {
      event.detail.serverResponse = answer.replace(' is-new"', ' is-new is-reply"');
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    // The answer is in: no "Sending your move" over it while it settles.
    if (inGame(event) && event.target.id === "play" && pending) clearTimeout(pending.timer);
  });

  function settled() {
    busy = false;
    sent = null;
    swapping = false;
    clearPending();
    rove();
    celebrate();
    if (refused) say(refused);
    refused = null;
    var id = waiting;
    waiting = null;
    if (!id) return;
    var button = document.getElementById(id);
    var cell = button && button.closest("#board .cell");
    if (!button || button.disabled || (cell && !isOpen(cell))) {
      say(cell ? "That square was taken while the game changed; choose another." : "The game changed before your click could count; here it is now.");
      return;
    }
    button.click();
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    // Fired once for #play and once for each part swapped out of band: count the first only.
    if (inGame(event) && event.target.id === "play") settled();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    // An answer that is not drawn (a failure, or nothing to draw) settles nothing: let the next click go.
    if (inGame(event) && !swapping) settled();
  });

  // --- the end of a game ------------------------------------------------------------------------

  function celebrate() {
    var shown = board();
    var tone = document.querySelector("#status .status-text");
    if (!shown || !tone) return;
    if (wasPlaying && tone.getAttribute("data-tone") === "win") shown.classList.add("is-won");
  }

  // --- when the server cannot be reached, say so where the player is looking --------------------

  document.addEventListener("htmx:sendError", function () {
    clearPending();
    say("The game could not reach the server. Check your connection and try again.");
  });
  document.addEventListener("htmx:responseError", function () {
    clearPending();
    say("Something went wrong on our side. Please try again.");
  });

  rove();
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
