"""`site-builder desk`: the venue desk. An event run from a browser — results entered table by
table and checked as `check` checks them, players reporting from their phones, the wall with
the pairings, the timer and the standings — with the round files still the one source of truth:
every result the desk accepts is a line of a round file (roundfile.py, store.py)."""
