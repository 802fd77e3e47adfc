// Live reload for `site-builder serve`: injected by the preview server, never written to the site.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script.getAttribute("data-base");
  var here = location.pathname;
  // Set on the server's "No site yet" page: the generation it was served at.
  var placeholder = script.getAttribute("data-placeholder");
  var source = new EventSource(base + "__live/events");

  function overlay(errors, built) {
    var box = document.getElementById("site-builder-problems");
    if (!errors.length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("div");
      box.id = "site-builder-problems";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:50vh;overflow:auto;" +
        "z-index:2147483647;background:#2b0b0b;color:#fde8e8;font:14px/1.45 ui-monospace,monospace;" +
        "padding:12px 16px;box-shadow:0 -4px 16px rgba(0,0,0,.4)";
      document.body.appendChild(box);
    }
    box.textContent = "";
    var title = document.createElement("strong");
    title.textContent = built
      ? "The data has errors: the site shows its last good version until they are fixed."
      : "The data has errors, so there is no site yet: it is built once they are fixed.";
    box.appendChild(title);
    var list = document.createElement("ul");
    list.style.cssText = "margin:8px 0 0;padding-left:20px";
    errors.forEach(function (problem) {
      var item = document.createElement("li");
      item.textContent = problem;
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  source.onmessage = function (event) {
    var state = JSON.parse(event.data);
    if (state.base !== base && here.indexOf(base) === 0) {
      // site.toml's base_url changed: this page now lives under the new base path.
      source.close();
      location.replace(state.base + here.slice(base.length) + location.search + location.hash);
      return;
    }
    overlay(state.errors, state.built);
    if (placeholder !== null) {
      // Built since this page was served (the first message may already say so): show the site.
      if (state.built && state.generation > Number(placeholder)) location.reload();
    } else if (!state.initial && (state.reload_all || state.changed.indexOf(here) >= 0)) {
      location.reload();
    }
  };
})();
