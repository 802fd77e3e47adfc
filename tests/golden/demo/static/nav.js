/* An event's tabs on a small screen are one line that scrolls sideways: this brings the page's
   own tab into view, and the round being played beside it when both fit. Without it the line
   starts at "Overview", as it does where scripts are off. Reads nothing but the page. */
(function () {
  "use strict";
  var nav = document.querySelector(".event-nav");
  if (!nav || nav.scrollWidth <= nav.clientWidth) return;
  var current = nav.querySelector("[aria-current]");
  var playing = nav.querySelector(".playing");
  if (!current) return;
  var left = current.offsetLeft, right = current.offsetLeft + current.offsetWidth;
  if (playing && playing !== current) {
    var both = [Math.min(left, playing.offsetLeft),
                Math.max(right, playing.offsetLeft + playing.offsetWidth)];
    if (both[1] - both[0] <= nav.clientWidth) { left = both[0]; right = both[1]; }
  }
  var start = nav.firstElementChild ? nav.firstElementChild.offsetLeft : 0;
  nav.scrollLeft = Math.max(0, (left + right - nav.clientWidth) / 2 - start);
})();
