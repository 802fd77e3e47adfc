/* "Find your name" on a round being played: a box that keeps the lines whose name holds what is
   typed, folded as the search page folds it ("zoe" finds Zoë, "soren" Søren). Without scripts
   the box stays hidden and the list is whole. Reads nothing but the page; names are matched as text, never as HTML. */
(function () {
  "use strict";
  var box = document.getElementById("name-filter");
  var list = document.getElementById("by-name-list");
  var none = document.getElementById("name-filter-none");
  var fold = window.siteFold;  // fold.js, loaded before this: as the search page folds
  if (!box || !list || !fold) return;
  var lines = Array.prototype.slice.call(list.children).map(function (li) {
    var who = li.querySelector(".who");
    return {li: li, name: fold(who ? who.textContent : li.textContent)};
  });
  box.parentNode.hidden = false;
  box.addEventListener("input", function () {
    var wanted = fold(box.value), shown = 0;
    lines.forEach(function (line) {
      var keep = !wanted || line.name.indexOf(wanted) !== -1;
      line.li.hidden = !keep;
      if (keep) shown += 1;
    });
    if (none) none.hidden = shown > 0;
  });
})();
