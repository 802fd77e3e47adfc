/* How the site's pages match a typed name, the way site_builder/pages/search.py folds names:
   letters Unicode does not decompose written as typed, accents and case dropped, apostrophes
   and dots left out, other punctuation a space ("Søren O'Brien" → "soren obrien"). Used by the
   search page (search.js) and by "Find your name" (filter.js). */
window.siteFold = (function () {
  "use strict";
  var LETTERS = {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss",
                 "ẞ": "SS", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D",
                 "þ": "th", "Þ": "TH", "ı": "i"};
  var SPECIAL = /[øØæÆœŒßẞłŁđĐðÐþÞı]/g;
  return function fold(text) {
    return text.replace(SPECIAL, function (c) { return LETTERS[c]; })
      .normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ς/g, "σ")
      .replace(/['’ʼ.]/g, "").replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  };
})();
