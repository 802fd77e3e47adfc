/* The search page: finds players and events by any part of their name, as you type.
   Reads the site's own search.json (its address is the form's data-index, written with the
   site's base path) and nothing else. Every name is data: it reaches the page as textContent. */
(function () {
  "use strict";

  var LIMIT = 50;
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var fold = window.siteFold;  // fold.js, loaded before this

  var form = document.getElementById("search-form");
  if (!form || !window.fetch || !fold) return;
  var input = document.getElementById("search-q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var root = form.getAttribute("data-root");
  var entries = null;
  var statusTimer = 0;

  function shortDate(iso) {
    var parts = iso.split("-");
    return Number(parts[2]) + " " + MONTHS[Number(parts[1]) - 1] + " " + parts[0];
  }

  function plural(count, word) {
    return count + " " + word + (count === 1 ? "" : "s");
  }

  function load(index) {
    var games = index.games;
    var found = index.players.map(function (p) {
      var years = p.y[0] === p.y[1] ? String(p.y[0]) : p.y[0] + "–" + p.y[1];
      var played = p.g.map(function (g) { return games[g]; }).join(", ");
      return {kind: "Player", name: p.n, url: p.u, f: p.f, sub: "",
              meta: [played, years, plural(p.c, "event")]};
    });
    index.events.forEach(function (e) {
      found.push({kind: "Event", name: e.n, url: e.u, f: e.f, sub: e.s || "",
                  meta: [games[e.g], shortDate(e.d)]});
    });
    return found;
  }

  // Every word of the query must occur in the name; a word found at the start of one of the
  // name's words counts more than one found inside, and the whole query opening the name more.
  function score(entry, words, phrase) {
    var total = 0;
    var spaced = " " + entry.f;
    for (var i = 0; i < words.length; i++) {
      if (spaced.indexOf(" " + words[i]) >= 0) total += 2;
      else if (entry.f.indexOf(words[i]) >= 0) total += 1;
      else return 0;
    }
    if (entry.f.indexOf(phrase) === 0) total += 1;
    if (entry.f === phrase) total += 1;
    return total;
  }

  function item(entry) {
    var li = document.createElement("li");
    var link = document.createElement("a");
    link.href = root + entry.url;
    link.textContent = entry.name;
    li.appendChild(link);
    var kind = document.createElement("span");
    kind.className = "badge search-kind";
    kind.textContent = entry.kind;
    li.appendChild(document.createTextNode(" "));
    li.appendChild(kind);
    if (entry.sub) {
      var sub = document.createElement("span");
      sub.className = "search-sub";
      sub.textContent = entry.sub;
      li.appendChild(sub);
    }
    var meta = document.createElement("span");
    meta.className = "search-meta";
    meta.textContent = entry.meta[0];  // the game(s), then years and dates kept on one line
    entry.meta.slice(1).forEach(function (part) {
      var span = document.createElement("span");
      span.textContent = part;
      meta.appendChild(document.createTextNode(" · "));
      meta.appendChild(span);
    });
    li.appendChild(meta);
    return li;
  }

  function say(text, now) {
    // The status is a live region: while the reader types it is said once they pause.
    clearTimeout(statusTimer);
    if (now) status.textContent = text;
    else statusTimer = setTimeout(function () { status.textContent = text; }, 400);
  }

  function show(query, now) {
    var phrase = fold(query);
    list.replaceChildren();
    list.hidden = true;
    if (!phrase) { say("", true); return; }
    if (!entries) { say("Loading the search…", true); return; }
    var words = phrase.split(" ");
    var hits = [];
    entries.forEach(function (entry) {
      var points = score(entry, words, phrase);
      if (points) hits.push({points: points, entry: entry});
    });
    hits.sort(function (a, b) {
      return b.points - a.points || (a.entry.f < b.entry.f ? -1 : a.entry.f > b.entry.f ? 1 : 0);
    });
    var quoted = "“" + query.trim() + "”";
    if (!hits.length) { say("No players or events match " + quoted + ".", now); return; }
    var players = hits.filter(function (h) { return h.entry.kind === "Player"; }).length;
    var events = hits.length - players;
    var counted = [players ? plural(players, "player") : "", events ? plural(events, "event") : ""]
      .filter(Boolean).join(" and ");
    var more = hits.length > LIMIT ? ": the best " + LIMIT + " are shown" : "";
    say(counted + (hits.length === 1 ? " matches " : " match ") + quoted + more + ".", now);
    hits.slice(0, LIMIT).forEach(function (h) { list.appendChild(item(h.entry)); });
    list.hidden = false;
  }

  function remember(query) {
    var url = new URL(window.location.href);
    if (query.trim()) url.searchParams.set("q", query);
    else url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  }

  input.addEventListener("input", function () {
    remember(input.value);
    show(input.value, false);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    remember(input.value);
    show(input.value, true);
  });

  input.value = new URLSearchParams(window.location.search).get("q") || "";
  show(input.value, true);
  fetch(form.getAttribute("data-index"))
    .then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.json();
    })
    .then(function (index) {
      entries = load(index);
      show(input.value, true);
    })
    .catch(function () {
      say("", true);
      document.getElementById("search-failed").hidden = false;
    });
})();
