"""The build while the organizer works: the file watcher (`watch`), a watch or serve session around
one engine (`session`), and the preview server with live reload and the error overlay (`serve`,
`httpguards`, `live.js`).
"""
