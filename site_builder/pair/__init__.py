"""`site-builder pair`: forming the next round of an event by its game's own procedure."""
