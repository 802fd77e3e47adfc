"""The league's data as the build reads it: `site.toml` (`config`), the Markdown pages under
`content/` (`content`), people and their ids across events (`people`), each event folder read
into a validated `Event` (`load`), its `drops.csv` (`drops`), and the organizer's slips in
names, reported as warnings (`namechecks`). The games' own rules are in `rules/`, which this
package asks to read each event's options and rows.
"""
