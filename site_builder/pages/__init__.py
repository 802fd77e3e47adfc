"""The site's pages, planned from what the games scored: an event's own pages (`eventpages`), what
the rest of the site reads of an event (`facts`), the pages across events (`sitepages`),
rankings, the players index, search, feeds, and the decks and metagame tables (`decks`,
`deckentry`, `metagame`, `deckpages`). A page here is a plan (template, context, key); drawing
and writing it is the build's.
"""
