"""Reading the site's files, and nothing more: what a build may read at all (`sources`: links,
pipes, hidden files, sizes), UTF-8, CSV and TOML readers that report `path:line` problems
(`textfiles`), typed reading of TOML keys (`tomlkeys`), and the digests of input files that
decide what a build does again (`inputs`).
"""
