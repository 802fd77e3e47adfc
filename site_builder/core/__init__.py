"""The shared vocabulary every other package speaks, and which imports none of them: the validated
model of an event (`model`), problems and the errors that carry them (`problems`), exact numbers
and dates as pages show them (`numbers`, `dates`), the build's digests (`digests`), the one JSON
format of published files (`jsonfile`), values kept as plain data and read back by type
(`statecodec`), and what a long step says on a terminal (`notice`).
"""
