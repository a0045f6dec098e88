// Small enhancements on top of plain forms and htmx; the game works without any of this.
(function () {
  "use strict";

  document.documentElement.classList.add("js");

  var SLOW_MS = 150; // a move not answered by then shows as on its way (its mark pulses)
  // A finger that lands on the board this soon after a move appears on it was on its way before: no one answers a
  // board that fast. Such a tap plays nothing and says nothing, whatever the board, the level or the server's speed.
  var REACT_MS = 150;
  var drawnAt = -Infinity; // when the last move drawn on the board appeared (performance.now())
  // A reply not in by then is said to be coming: later than a typical reply (median 0.1 to 0.3 s on 15×15
  // against Hard), so that a quick one never flashes the words.
  var THINKING_MS = 400;
  var busy = false; // a request from the game is on its way and its answer not yet drawn
  var swapping = false; // its answer will be drawn (htmx swaps it)
  var waiting = null; // the id of a button clicked while busy, clicked again once the answer is drawn
  var waitingTap = false; // that click was a finger's tap on a square (the magnifier's, once the answer is drawn)
  var pending = null; // the move being sent: { cell, marks, timer }
  var sent = null; // the id of the button whose request is on its way
  // The square last played from this page, and how many marks the board had before: a tap on it once it is taken
  // (the second tap of a double tap, its first answered in between) plays nothing and says nothing.
  var played = null;

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
    // The game page's slot is under its buttons (#slot); a friend game's, under its board.
    var slot = document.getElementById("slot") || document.querySelector(".play .slot");
    var message = slot && slot.querySelector("p.message");
    if (!message) {
      // At the end of a game the slot holds Play again, or a question: the message goes above it.
      if (!slot) return;
      message = document.createElement("p");
      slot.prepend(message);
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
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable], dialog")) return;
    var ids = SHORTCUTS[event.key.toLowerCase()];
    if (!ids || !game()) return;
    var button = ids.map(function (id) { return document.getElementById(id); }).filter(Boolean)[0];
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });

  // --- every form stamps the game the player saw; one tap is one move, and a click held for later ------

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
      var touched = pointer;
      var early = pressedEarly;
      pointer = "";
      pressedEarly = false;
      if (!button || !button.form) return;
      var cell = button.closest("#board .cell");
      if (cell && early && !busy) {
        // The finger came down while the reply to the move before was on its way, or just as it appeared, and its
        // click came after: a tap in the same breath, not an answer to a board the player had not seen yet.
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      if (cell && !busy && wantsLoupe(cell, touched, event.detail)) {
        event.preventDefault();
        event.stopPropagation();
        openLoupe(cell);
        return;
      }
      if (busy) {
        // The answer to the request before will redraw the page, and htmx would drop a click
        // queued on a part it removes: hold the click, and make it once the answer is drawn.
        event.preventDefault();
        event.stopPropagation();
        if (button.id && button.id === sent) return; // a double click: the first one counts
        if (cell && pending) {
          // A square while a move is on its way: one tap, one move. The board already shows that it waits for the
          // answer; the tap is dropped, and the board says so a little more plainly.
          board().classList.add("is-waiting");
          return;
        }
        waiting = button.id;
        waitingTap = Boolean(cell) && touched === "touch" && event.detail !== 0;
        return;
      }
      if (cell && !isOpen(cell) && isPlayed(cell)) {
        event.preventDefault(); // the second tap of a double tap, on the square its first tap played
        event.stopPropagation();
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

  // Whether ``cell`` holds the move this page played last, still on the board (not undone, nor a new game's).
  function isPlayed(cell) {
    var shown = board() && board().getAttribute("data-board");
    return Boolean(played && shown) && played.cell === Number(cell.value) && marksOn(shown) > played.marks;
  }

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
    played = { cell: Number(cell.value), marks: marksOn(shown) };
    cell.classList.add("is-pending");
    board().classList.add("is-pending");
    board().setAttribute("aria-busy", "true");
    // Against the computer the move is on its way for a few milliseconds and the reply is thought out for the
    // rest of the wait: the status says the computer is thinking. Between two people it says the move is sent.
    var fields = document.querySelector("#play .game-fields");
    var replies = Boolean(fields) && fields.getAttribute("data-mode") === "hvc";
    pending = {
      cell: Number(cell.value),
      marks: marksOn(shown),
      timer: setTimeout(function () {
        if (pending && board()) board().classList.add("is-slow");
      }, SLOW_MS),
      words: setTimeout(function () {
        var status = document.querySelector("#status .status-text");
        if (!pending || !status) return;
        // A new line in place of the old one, not the old one rewritten: its box is as wide as its words and
        // centred, so rewritten it would slide sideways, a layout shift to a browser (the player's click is over
        // half a second old by now), where a new line simply appears.
        var words = status.cloneNode(false);
        words.textContent = replies ? "Computer is thinking…" : "Sending your move…";
        words.removeAttribute("data-tone");
        status.replaceWith(words);
      }, replies ? THINKING_MS : SLOW_MS),
    };
  }

  function clearPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    clearTimeout(pending.words);
    pending = null;
    var shown = board();
    if (!shown) return;
    shown.classList.remove("is-pending", "is-slow", "is-waiting");
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
    plyAsked = board() ? board().getAttribute("data-ply") : null;
  });

  // The words of a refusal or failure the server explains (partials/problem.html), without its link.
  function explained(xhr) {
    var text = xhr && typeof xhr.responseText === "string" ? xhr.responseText : "";
    if (!/class="message/.test(text)) return "";
    var found = new DOMParser().parseFromString(text, "text/html").querySelector(".message");
    if (!found) return "";
    // "… <a>Reload the game</a>.": the link and its full stop go, the message stays.
    found.querySelectorAll("a").forEach(function (link) {
      link.remove();
    });
    return found.textContent.replace(/\s+/g, " ").trim().replace(/\s+\.$/, "");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!inGame(event)) return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 400 && !/id="board"/.test(xhr.responseText || "")) {
      // A refusal that does not carry the game (too many requests at once, a request too large): its
      // message goes beside the board, which stays as it is, and the move waiting on it is taken back.
      event.detail.shouldSwap = false;
      clearPending();
      say(explained(xhr) || "The game could not take that just now. Please try again.");
      return;
    }
    if (!event.detail.shouldSwap) return;
    swapping = true;
  });

  var plyAsked = null; // the board's ply when the request left: a different one in the answer is a move drawn

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!inGame(event) || event.target.id !== "play") return;
    // The answer is in: no words about a move on its way over it while it settles.
    if (pending) {
      clearTimeout(pending.timer);
      clearTimeout(pending.words);
    }
    var shown = board();
    if (shown && shown.getAttribute("data-ply") !== plyAsked) drawnAt = performance.now();
  });

  function settled() {
    busy = false;
    sent = null;
    swapping = false;
    clearPending();
    markFresh();
    rove();
    celebrate();
    var question = focusAnswer && document.getElementById("confirm-button");
    focusAnswer = false;
    if (question) question.focus();
    var id = waiting;
    var tapped = waitingTap;
    waiting = null;
    waitingTap = false;
    if (!id) return;
    var button = document.getElementById(id);
    var cell = button && button.closest("#board .cell");
    // A click held for a control the answer took away, or a square it filled: the page now shows why, and a
    // refusal would blame the player for the timing.
    if (!button || button.disabled || (cell && !isOpen(cell))) return;
    if (tapped && wantsLoupe(cell, "touch", 1)) {
      // A finger's tap on a small square, held while the answer came: magnified, as any tap there is, not played
      // as it landed (the magnifier is there because a finger lands on the next square too often).
      openLoupe(cell);
      return;
    }
    button.click();
  }

  // While a move just drawn is too new to answer, the board says so in a class (nothing shows it): a page that
  // drives the board, as the browser tests do, waits for it to go before it taps.
  function markFresh() {
    var shown = board();
    var left = drawnAt + REACT_MS - performance.now();
    if (!shown || left <= 0) return;
    shown.classList.add("is-fresh");
    setTimeout(function () {
      shown.classList.remove("is-fresh");
    }, left);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    // Fired once for #play and once for each part swapped out of band: count the first only.
    if (inGame(event) && event.target.id === "play") settled();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    // An answer that is not drawn (a failure, or nothing to draw) settles nothing: let the next click go.
    if (inGame(event) && !swapping) settled();
  });

  // --- a big board by touch: a tap opens the squares around it, magnified, to choose from --------
  // On a phone 15×15's squares are about 20 px wide, and a finger's tap lands on the next square too often. A
  // tap there opens a window of 5 × 5 squares around it, each 50 px wide, and a tap in it plays. A player who
  // prefers one tap a move chooses "plays at once" (kept on this device), and zooms in with two fingers for bigger
  // squares: a square as wide on the screen as LOUPE_UNDER plays at once whatever the choice (docs/audits.md has
  // the taps on target and the taps a move of each way). The keyboard, a screen reader and a mouse play the board's
  // own squares at once, as before.

  var LOUPE_UNDER = 34; // squares narrower than this on the screen, in CSS pixels, are magnified for a finger
  var SMALL_SQUARES = "small-squares"; // the choice's key in localStorage: "magnify" (the default) or "at-once"
  var SPAN = 5; // squares across the magnifier
  var pointer = ""; // the kind of pointer that pressed last ("touch", "pen", "mouse"), until its click
  var pressedEarly = false; // it pressed while a move's reply was on its way, or just as it appeared (REACT_MS)
  var direct = false; // a square is being played from the magnifier

  document.addEventListener(
    "pointerdown",
    function (event) {
      pointer = event.pointerType || "";
      pressedEarly = Boolean(pending) || performance.now() - drawnAt < REACT_MS;
    },
    true
  );

  function wantsLoupe(cell, touched, detail) {
    // A click from the keyboard or a screen reader has no pointer before it (and detail 0).
    if (direct || touched !== "touch" || detail === 0 || smallSquares() === "at-once") return false;
    var shown = board();
    if (!shown || shown.getAttribute("data-status") !== "playing" || !cells().some(isOpen)) return false;
    // Zoomed in with two fingers, a square is that many times wider on the screen than on the page.
    var zoom = window.visualViewport ? window.visualViewport.scale : 1;
    return cell.getBoundingClientRect().width * zoom < LOUPE_UNDER;
  }

  function smallSquares() {
    try {
      return localStorage.getItem(SMALL_SQUARES) === "at-once" ? "at-once" : "magnify";
    } catch (error) {
      return "magnify"; // no storage (a private window's quota): the magnifier, as by default
    }
  }

  // The choice's dropdown (in the settings' fold, shown on touch screens) shows what this device keeps, and keeps
  // what it is given; the server never sees it.
  function showSmallSquares() {
    var choice = document.getElementById(SMALL_SQUARES);
    if (choice) choice.value = smallSquares();
    var note = document.getElementById("loupe-note"); // what a tap does on 15×15, under the board
    if (note) note.hidden = smallSquares() === "at-once";
  }

  document.addEventListener("DOMContentLoaded", showSmallSquares);
  document.addEventListener("htmx:afterSettle", showSmallSquares);
  document.addEventListener("change", function (event) {
    if (!event.target || event.target.id !== SMALL_SQUARES) return;
    try {
      localStorage.setItem(SMALL_SQUARES, event.target.value);
    } catch (error) {
      // Not kept: the page says nothing, and the choice lasts until it is drawn again.
    }
  });

  function svgCopy(mark) {
    var copy = mark.cloneNode(true);
    copy.classList.remove("is-new");
    return copy;
  }

  function openLoupe(tapped) {
    var all = cells();
    var n = Math.round(Math.sqrt(all.length));
    var index = Number(tapped.value);
    var clamp = function (i) {
      return Math.max(0, Math.min(n - SPAN, i - Math.floor(SPAN / 2)));
    };
    var top = clamp(Math.floor(index / n));
    var left = clamp(index % n);
    var shown = board().getAttribute("data-board") || "";
    var side = (shown.match(/X/g) || []).length > (shown.match(/O/g) || []).length ? "o" : "x";

    var dialog = document.createElement("dialog");
    dialog.className = "loupe";
    dialog.setAttribute("aria-labelledby", "loupe-title");
    var inner = document.createElement("div");
    inner.className = "loupe-inner";
    var title = document.createElement("p");
    title.id = "loupe-title";
    title.className = "loupe-title";
    title.textContent = "Rows " + (top + 1) + "–" + (top + SPAN) + ", columns " + (left + 1) + "–" + (left + SPAN) + ": tap a square to play it";
    var grid = document.createElement("div");
    grid.className = "loupe-grid";
    grid.appendChild(document.createElement("span"));
    for (var c = 0; c < SPAN; c++) grid.appendChild(guide(left + c + 1));
    for (var r = 0; r < SPAN; r++) {
      grid.appendChild(guide(top + r + 1));
      for (c = 0; c < SPAN; c++) {
        var source = all[(top + r) * n + left + c];
        var square = document.createElement("button");
        square.type = "button";
        square.className = source.className.replace(/\bis-pending\b/, "") + " loupe-cell";
        square.setAttribute("aria-label", source.getAttribute("aria-label"));
        square.setAttribute("data-cell", source.value);
        if (!isOpen(source)) square.setAttribute("aria-disabled", "true");
        source.querySelectorAll(".mark").forEach(function (mark) {
          square.appendChild(svgCopy(mark));
        });
        if (source === tapped && isOpen(source)) {
          // Where the finger landed: a faint mark of the side to play, and the focus.
          square.classList.add("is-ghost");
          square.appendChild(ghostOf(side));
          square.autofocus = true;
        }
        grid.appendChild(square);
      }
    }
    var close = document.createElement("button");
    close.type = "button";
    close.className = "button loupe-close";
    close.textContent = "Close";
    inner.append(title, grid, close);
    dialog.appendChild(inner);
    dialog.addEventListener("close", function () {
      dialog.remove();
    });
    dialog.addEventListener("click", function (event) {
      var square = event.target.closest(".loupe-cell");
      if (event.target === dialog || event.target.closest(".loupe-close")) {
        dialog.close(); // a tap on the dimmed page around it, or Close
      } else if (square && isOpen(square)) {
        dialog.close();
        play(square.getAttribute("data-cell"));
      }
    });
    document.body.appendChild(dialog);
    dialog.showModal();
  }

  function guide(number) {
    var label = document.createElement("span");
    label.className = "loupe-guide";
    label.setAttribute("aria-hidden", "true");
    label.textContent = number;
    return label;
  }

  function ghostOf(side) {
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "mark mark-" + side + " ghost");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    var shape = document.createElementNS(svg.namespaceURI, side === "x" ? "path" : "circle");
    if (side === "x") shape.setAttribute("d", "M26 26L74 74M74 26L26 74");
    else {
      shape.setAttribute("cx", "50");
      shape.setAttribute("cy", "50");
      shape.setAttribute("r", "26");
    }
    svg.appendChild(shape);
    return svg;
  }

  function play(index) {
    var cell = document.getElementById("cell-" + index);
    if (!cell) return;
    direct = true;
    try {
      cell.click();
    } finally {
      direct = false;
    }
  }

  // --- a dropdown that starts a new game sends a choice made with the keys once it is committed ---
  // Chromium changes a closed dropdown's value at each arrow key and says so at once: without this, each
  // option passed on the way asked "Start a new game?", and the question's answer put the dropdown back.
  // Such a choice is sent on Enter, or when the focus leaves the dropdown; Escape takes it back. A choice
  // made with a pointer, or in the open list, is sent at once.

  var focusAnswer = false; // after Enter, the focus goes to the question the answer asks, if any
  // Each such dropdown's state, kept off the page: htmx settles a redrawn element's attributes 20 ms after its
  // swap, which would wipe a mark set on it in the meantime. keyed: the last change came from a key; held: a
  // change waits for its commit.
  var states = new WeakMap();

  function stateOf(select) {
    if (!states.has(select)) states.set(select, { keyed: false, held: false });
    return states.get(select);
  }

  function committing(event) {
    return event.target.closest && event.target.closest("select[data-commit]");
  }

  document.addEventListener(
    "keydown",
    function (event) {
      var select = committing(event);
      if (!select) return;
      var state = stateOf(select);
      if (event.key === "Enter" && state.held) {
        event.preventDefault();
        commit(select, true);
      } else if (event.key === "Escape" && state.held) {
        event.preventDefault();
        state.held = state.keyed = false;
        Array.prototype.forEach.call(select.options, function (option) {
          option.selected = option.defaultSelected;
        });
      } else if (/^(Arrow|Home$|End$|Page)/.test(event.key) || event.key.length === 1) {
        state.keyed = true;
      }
    },
    true
  );

  document.addEventListener(
    "pointerdown",
    function (event) {
      var select = committing(event);
      if (select) stateOf(select).keyed = false;
    },
    true
  );

  document.addEventListener(
    "change",
    function (event) {
      var select = committing(event);
      if (!select || event.committed || !stateOf(select).keyed) return;
      // The focus may have left before the change is told (a key and Tab in one breath): that is a commit.
      if (document.activeElement !== select) {
        stateOf(select).keyed = false;
        return;
      }
      event.stopImmediatePropagation(); // htmx waits for the commit
      stateOf(select).held = true;
    },
    true
  );

  document.addEventListener(
    "focusout",
    function (event) {
      var select = committing(event);
      if (select && stateOf(select).held) commit(select, false);
    },
    true
  );

  function commit(select, fromEnter) {
    var state = stateOf(select);
    state.held = state.keyed = false;
    focusAnswer = fromEnter;
    var change = new Event("change", { bubbles: true });
    change.committed = true;
    select.dispatchEvent(change);
  }

  // --- the end of a game ------------------------------------------------------------------------

  function celebrate() {
    var shown = board();
    var tone = document.querySelector("#status .status-text");
    if (!shown || !tone) return;
    if (wasPlaying && tone.getAttribute("data-tone") === "win") shown.classList.add("is-won");
  }

  // --- the computers' pace: a move every PACE_MS from the start of the one before ----------------
  // Counted from when the step was asked for, not from when its answer came: a search that takes its time
  // (Hard on the big boards) is not followed by the whole pause as well.

  var PACE_MS = 500;
  var stepAsked = 0; // when the last step's request left (performance.now())
  var scheduled = new WeakSet();

  function keepPace() {
    var form = document.querySelector("form.autoplay");
    if (!form || scheduled.has(form)) return;
    scheduled.add(form);
    var wait = stepAsked ? Math.max(0, PACE_MS - (performance.now() - stepAsked)) : PACE_MS;
    setTimeout(function () {
      if (form.isConnected) htmx.trigger(form, "next");
    }, wait);
  }

  document.addEventListener("DOMContentLoaded", keepPace);
  document.addEventListener("htmx:afterSettle", keepPace);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.matches && form.matches("form.autoplay")) stepAsked = performance.now();
  });

  // --- a computer game goes on after a refused or lost step -------------------------------------
  // Each answer brings the trigger for the next step, so a step the server refused (busy: 429, with how long
  // to wait) or that never reached it brought none, and the game stood still with nothing to say it would
  // go on. It asks again after the wait, unless the game was paused or changed meanwhile (its form is gone).

  var RETRY_SECONDS = 2; // when the server named no wait
  var RETRIES = 5; // in a row; then the game stands, with the reason shown, until the player pauses and goes on
  var retried = 0;

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    var xhr = event.detail && event.detail.xhr;
    if (!form || !form.matches || !form.matches("form.autoplay") || !xhr) return;
    if (xhr.status !== 0 && xhr.status !== 429 && xhr.status < 500) {
      retried = 0;
      return;
    }
    if (retried >= RETRIES) return;
    retried += 1;
    var wait = parseInt(xhr.getResponseHeader("Retry-After"), 10);
    setTimeout(
      function () {
        if (form.isConnected) htmx.trigger(form, "retry");
      },
      (wait > 0 ? wait : RETRY_SECONDS) * 1000
    );
  });

  // --- when the server cannot be reached, say so where the player is looking --------------------

  document.addEventListener("htmx:sendError", function () {
    clearPending();
    say("The game could not reach the server. Check your connection and try again.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    clearPending();
    say(explained(event.detail && event.detail.xhr) || "Something went wrong on our side. Please try again.");
  });

  rove();
})();

// --- Move history and links: arrow keys in the move list, and "Copy link". ----------
// Without this the list is plain links and the address stays on the page, ready to select.
(function () {
  "use strict";

  var STEPS = { ArrowLeft: "step-back", ArrowUp: "step-back", ArrowRight: "step-forward", ArrowDown: "step-forward", Home: "step-start", End: "step-end" };
  var stepping = false;

  // In the move list, the arrow keys step through the game as the Back and Forward buttons do: from the move that
  // has the focus, which the reader may have moved with Tab away from the move on screen.
  document.addEventListener("keydown", function (event) {
    var list = event.target.closest && event.target.closest(".move-list");
    if (!list || !(event.key in STEPS)) return;
    var step = stepFromFocus(event.target, event.key) || document.getElementById(STEPS[event.key]);
    event.preventDefault();
    if (!step || !step.hasAttribute("href")) return;
    stepping = true;
    step.click();
  });

  // The link one step from the focused move of a review's list (the Start button before move 1), or null
  // where the focus is on no numbered move.
  function stepFromFocus(target, key) {
    var item = target.closest("li[id^='move-']");
    if (!item || !target.closest(".review-side")) return null;
    var number = parseInt(item.id.slice("move-".length), 10);
    if (key === "Home" || key === "End") return null;
    var next = STEPS[key] === "step-back" ? number - 1 : number + 1;
    if (next === 0) return document.getElementById("step-start");
    var link = document.querySelector("#move-" + next + " a");
    return link || item.querySelector("a");
  }

  // The move list stays while a step redraws the board beside it (and a big board's grades arrive into it in
  // pieces): the move now shown is marked in it here, as the server marks it on a page of its own.
  function markShown() {
    var view = document.getElementById("review-view");
    if (!view) return null;
    var at = view.getAttribute("data-at");
    var shown = null;
    document.querySelectorAll(".review-side .move-list li").forEach(function (item) {
      var link = item.querySelector("a");
      if (!link) return;
      if (item.id === "move-" + at) {
        link.setAttribute("aria-current", "step");
        shown = link;
      } else {
        link.removeAttribute("aria-current");
      }
    });
    return shown;
  }

  // After a step from the keyboard, or a move chosen in the list, keep the focus on the move now shown, so the
  // keys go on working.
  document.addEventListener("htmx:afterSettle", function (event) {
    var current = markShown();
    if (event.target && event.target.id === "review-view") keepStatusInView();
    if (!stepping || !event.target || event.target.id !== "review-view") return;
    stepping = false;
    if (current) current.focus();
  });

  // A step leaves the page where it was (show:none on the steps), but on a phone the reader may have scrolled
  // the line "You are looking at move…" away to reach Forward: bring it back to the top of the screen.
  function keepStatusInView() {
    var status = document.getElementById("review-status");
    if (status && status.getBoundingClientRect().top < 0) status.scrollIntoView({ block: "start" });
  }

  // A piece of a big board's grades refused (a busy server: 429, with how long to wait) or lost on its way: the
  // grader stays, and asks again after the wait, a few times in a row at most.
  var GRADER_RETRIES = 5;
  var graderRetried = 0;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var grader = event.detail && event.detail.elt;
    if (!grader || grader.id !== "review-grader") return;
    var xhr = event.detail.xhr;
    if (xhr && xhr.status < 400) {
      graderRetried = 0;
      return;
    }
    event.detail.shouldSwap = false;
    retryGrader(grader, xhr);
  });
  document.addEventListener("htmx:sendError", function (event) {
    var grader = event.detail && event.detail.elt;
    if (grader && grader.id === "review-grader") retryGrader(grader, null);
  });

  function retryGrader(grader, xhr) {
    if (graderRetried >= GRADER_RETRIES) return;
    graderRetried += 1;
    var wait = xhr ? parseInt(xhr.getResponseHeader("Retry-After"), 10) : NaN;
    setTimeout(function () {
      if (grader.isConnected) htmx.trigger(grader, "retry");
    }, (wait > 0 ? wait : 2) * 1000);
  }

  // A move chosen while a piece of a big board's grades is on its way would wait behind the piece, which then
  // redraws that move in the list and the wait is dropped with the link it was for: it is chosen again once the
  // piece is in, from the list as redrawn.
  var chosenMeanwhile = null;
  document.addEventListener(
    "click",
    function (event) {
      var link = event.target.closest && event.target.closest(".review-side .move-list a");
      var grader = document.getElementById("review-grader");
      var item = link && link.closest("li[id]");
      if (!item || !grader || !grader.classList.contains("htmx-request")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      chosenMeanwhile = item.id;
    },
    true
  );
  document.addEventListener("htmx:afterSettle", function () {
    if (!chosenMeanwhile) return;
    var link = document.querySelector("#" + chosenMeanwhile + " a");
    chosenMeanwhile = null;
    if (link) link.click();
  });

  // A move chosen in the list: in the review htmx draws it in place; from the game's own list a new page comes,
  // which then puts the focus on that move in its list (without scrolling the board out of view).
  var CHOSEN = "move-chosen";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".move-list a");
    if (!link) return;
    if (link.closest(".review-side")) stepping = true;
    else {
      try {
        sessionStorage.setItem(CHOSEN, "1");
      } catch (error) {
        // No storage (a private window's quota): the page opens with the focus at its top, as without JavaScript.
      }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var chosen = false;
    try {
      chosen = sessionStorage.getItem(CHOSEN) === "1";
      sessionStorage.removeItem(CHOSEN);
    } catch (error) {
      return;
    }
    var current = chosen && document.querySelector(".move-list [aria-current='step']");
    if (current) current.focus({ preventScroll: true });
  });

  // "Copy link" copies the address shown beside it; the button only exists for those with JavaScript.
  // An address written as a path (a page drawn by an older server) is completed from the browser's own.
  function showCopyButtons() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (field && field.value.charAt(0) === "/") field.value = new URL(field.value, window.location.href).href;
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

// --- Play a friend: Share where the browser can, and a page that keeps its live stream honest ---------
(function () {
  "use strict";

  // Share opens the phone's own list of apps to send the link with; only browsers with the Web Share API show it.
  function showShareButtons() {
    if (typeof navigator.share !== "function") return;
    document.querySelectorAll("[data-share]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", showShareButtons);
  document.addEventListener("htmx:afterSettle", showShareButtons);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-share"));
    if (!field) return;
    navigator.share({ title: "Play tic-tac-toe with me", url: field.value }).catch(function () {
      // Closed without sharing: nothing to say.
    });
  });

  // A refused "Play a friend" (429, 503) puts the Mode dropdown back on the mode still played, so that the panel
  // never shows "Play a friend" over another mode's level pickers.
  // The mode played is the one the game's fields name (partials/play.html), read after the answer has settled:
  // a Computer vs Computer step may have redrawn the panel meanwhile.
  document.addEventListener("htmx:afterRequest", function (event) {
    var asked = event.detail && event.detail.elt;
    if (!asked || asked.id !== "mode" || !event.detail.xhr || event.detail.xhr.status < 400) return;
    setTimeout(function () {
      var select = document.getElementById("mode");
      var fields = document.querySelector(".game-fields[data-mode]");
      var played = fields && fields.getAttribute("data-mode");
      if (!select || !played) return;
      Array.prototype.forEach.call(select.options, function (option) {
        option.selected = option.value === played;
      });
    }, 0);
  });

  // The live stream (webapp/web/relay.py), through a source of our own that the SSE extension uses: it reconnects
  // within seconds whatever failed (the extension waits longer after each failure, up to a minute), says
  // "Reconnecting…" while cut off, and past the server's bounds follows the game by asking for it every few
  // seconds, as a page without JavaScript reloads.
  var RECONNECT_MS = 2000; // after a refusal the browser does not retry by itself (an HTTP error)
  var QUIET_MS = 1500; // a stream that ends and reopens at once says nothing
  var POLL_MS = 3000; // the no-JavaScript refresh's pace (friend.REFRESH_SECONDS)

  function drawnKey() {
    var presence = document.getElementById("presence");
    return presence ? presence.getAttribute("data-drawn") : "";
  }

  var noteTimer = null;
  function cutOff(isCutOff, now) {
    var note = document.getElementById("live-note");
    if (!note) return;
    window.clearTimeout(noteTimer);
    noteTimer = window.setTimeout(
      function () {
        note.hidden = !isCutOff;
      },
      now ? 0 : isCutOff ? QUIET_MS : 300
    );
  }

  function followByPolling() {
    window.setInterval(function () {
      var game = document.querySelector(".friend-game");
      if (!game || document.hidden) return;
      var address = window.location.pathname + "?drawn=" + encodeURIComponent(drawnKey());
      htmx.ajax("GET", address, { source: game, target: "#play", swap: "innerHTML" });
    }, POLL_MS);
  }

  function LiveSource(url) {
    this.url = url;
    this.listeners = [];
    this.readyState = 0;
    this.closed = false;
    this.onopen = null;
    this.onerror = null;
    this.connect();
  }
  LiveSource.prototype.connect = function () {
    var self = this;
    var real = (this.real = new EventSource(this.url, { withCredentials: true }));
    this.listeners.forEach(function (listener) {
      real.addEventListener(listener[0], listener[1]);
    });
    real.onopen = function (event) {
      self.readyState = 1;
      cutOff(false);
      if (self.onopen) self.onopen(event);
    };
    real.onerror = function (event) {
      if (self.closed) return;
      self.readyState = 0; // never CLOSED to the extension, whose own retries back off to a minute
      cutOff(true);
      if (self.onerror) self.onerror(event);
      if (real.readyState === 2) {
        window.setTimeout(function () {
          if (!self.closed) self.connect();
        }, RECONNECT_MS);
      }
    };
    real.addEventListener("offline", function () {
      cutOff(true, true); // the store does not answer: the browser asks again in a moment
    });
    real.addEventListener("update", function () {
      cutOff(false);
    });
    real.addEventListener("full", function () {
      self.close();
      cutOff(false);
      followByPolling();
    });
    real.addEventListener("gone", function () {
      self.close(); // the extension has swapped in what it says, and the offer of a new game
      cutOff(false);
    });
  };
  LiveSource.prototype.addEventListener = function (type, listener) {
    this.listeners.push([type, listener]);
    this.real.addEventListener(type, listener);
  };
  LiveSource.prototype.removeEventListener = function (type, listener) {
    this.listeners = this.listeners.filter(function (kept) {
      return kept[0] !== type || kept[1] !== listener;
    });
    this.real.removeEventListener(type, listener);
  };
  LiveSource.prototype.close = function () {
    this.closed = true;
    this.readyState = 2;
    this.real.close();
  };
  if (window.htmx && window.EventSource) {
    htmx.createEventSource = function (url) {
      return new LiveSource(url);
    };
  }

  // The answer to this page's own move already drew it: the stream's copy (meant for the seat's other tabs) is
  // not swapped again, which would take the focus off the board.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var key = event.detail && event.detail.lastEventId;
    if (key && key === drawnKey()) event.preventDefault();
  });

  // "Your friend left 20 s ago": the seconds go on without a new drawing (presence.span_words's words).
  function spanWords(seconds) {
    seconds = Math.max(Math.floor(seconds), 0);
    if (seconds < 120) return seconds + " s";
    if (seconds < 3600) return Math.floor(seconds / 60) + " min";
    var days = Math.round(seconds / 86400);
    if (seconds >= 86400) return days === 1 ? "a day" : days + " days";
    var hours = Math.round(seconds / 3600);
    return hours === 1 ? "an hour" : hours + " hours";
  }
  window.setInterval(function () {
    document.querySelectorAll("[data-left-at]").forEach(function (span) {
      span.textContent = spanWords(Date.now() / 1000 - Number(span.getAttribute("data-left-at")));
    });
  }, 1000);
})();

// --- A mode chosen in the folded Mode panel: the game it starts is brought into view. ----------------
// On a phone the panel sits under the board, which the answer leaves off screen (a computer game then played
// out of sight); a question it asks first sits under the game's buttons, above the panel.
(function () {
  "use strict";

  var modeChosen = false;

  document.addEventListener("htmx:beforeRequest", function (event) {
    var select = event.detail && event.detail.elt;
    if (select && select.id === "mode") modeChosen = true;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!modeChosen) return;
    modeChosen = false;
    var question = document.querySelector("#slot .confirm");
    var status = document.getElementById("status");
    var board = document.getElementById("board");
    if (question) {
      if (!inView(question)) question.scrollIntoView({ block: "center" });
    } else if (status && board && !(inView(status) && inView(board))) {
      status.scrollIntoView({ block: "start" });
    }
  });

  function inView(element) {
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }
})();
