// sia-tui web: the page's own script (the CSP forbids inline scripts).
"use strict";

// The websocket lives next to this page, under the same /TOKEN/ path and on the host the
// browser used; textual.js appends "?width=..&height=..", so the URL has no query here.
(function () {
  const terminal = document.getElementById("terminal");
  const url = new URL("ws", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  terminal.dataset.sessionWebsocketUrl = url.href;

  // Start and Restart reload this page without textual-serve's "delay" parameter.
  function restart() {
    const params = new URLSearchParams(window.location.search);
    params.delete("delay");
    const query = params.toString();
    window.location.href = window.location.pathname + (query ? "?" + query : "");
  }
  document.querySelectorAll(".sia-restart").forEach(function (button) {
    button.addEventListener("click", restart);
  });

  // The app's first frame hides the intro (textual.js adds "-first-byte" to the body): give
  // the terminal the keyboard then, so keys reach the app without a click first.
  const body = document.body;
  const watch = new MutationObserver(function () {
    if (!body.classList.contains("-first-byte")) {
      return;
    }
    watch.disconnect();
    const input = terminal.querySelector("textarea");
    if (input) {
      input.focus();
    }
  });
  watch.observe(body, { attributes: true, attributeFilter: ["class"] });

  // xterm measures the cell size when textual.js connects (window.onload): wait for the
  // local Roboto Mono so the measure is not taken with a fallback font.
  const start = window.onload;
  if (typeof start === "function" && document.fonts && document.fonts.load) {
    window.onload = function (event) {
      document.fonts
        .load('16px "Roboto Mono"')
        .catch(function () {})
        .then(function () {
          start.call(window, event);
        });
    };
  }
})();
