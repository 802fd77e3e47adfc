"""The organizer's commands besides building: `site-builder pair`, which forms the next round by
the event's game and writes its round file (`pair`, with `pairnames`, `pairtrust` and
`pairterminal`), and `site-builder new`, which starts a league repository from the files in
`scaffold/` (`newleague`).
"""
