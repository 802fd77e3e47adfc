// The desk's little script: the wall keeps itself current (server-sent events), counts its
// timer down and turns its pages; everything else works without it.
(function () {
  "use strict";
  var wall = document.getElementById("wall");
  if (!wall) return;
  var pageRows = parseInt(wall.dataset.pageRows, 10) * 2 || 24;
  var page = 0;

  function tick() {
    var timer = wall.querySelector(".timer");
    if (!timer) return;
    var left = parseFloat(timer.dataset.remaining);
    if (timer.dataset.running === "1") {
      left = parseFloat(timer.dataset.endsIn) - (Date.now() - parseFloat(timer.dataset.at)) / 1000;
    }
    var shown = Math.max(0, Math.ceil(left));
    timer.querySelector(".clock").textContent =
      Math.floor(shown / 60) + ":" + String(shown % 60).padStart(2, "0");
    timer.classList.toggle("expired", left <= 0);
  }

  function startClock() {
    var timer = wall.querySelector(".timer");
    if (timer) {
      timer.dataset.endsIn = timer.dataset.remaining;
      timer.dataset.at = String(Date.now());
    }
    tick();
  }

  function turnPage() {
    var rows = wall.querySelectorAll(".wall-tables li");
    var pages = Math.max(1, Math.ceil(rows.length / pageRows));
    page = (page + 1) % pages;
    rows.forEach(function (row, i) {
      row.hidden = pages > 1 && Math.floor(i / pageRows) !== page;
    });
  }

  function refresh() {
    fetch(wall.dataset.part, { cache: "no-store" }).then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      if (html === null) return;
      wall.innerHTML = html;
      page = -1;
      turnPage();
      startClock();
      wall.dataset.updated = String(Date.now());
    }).catch(function () {});
  }

  startClock();
  page = -1;
  turnPage();
  setInterval(tick, 250);
  setInterval(turnPage, 10000);
  if (window.EventSource) {
    // Each message carries the desk's generation; the page knows the one it was drawn at, so
    // a change between drawing the page and opening the stream is not missed.
    var shown = wall.dataset.generation;
    var source = new EventSource(wall.dataset.stream);
    source.onmessage = function (message) {
      if (message.data === shown) return;
      shown = message.data;
      refresh();
    };
  }
})();
