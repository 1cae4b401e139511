"""Runs after boot.py: start the app. Ctrl-C stops it and leaves the REPL for mpremote."""

from firmware import app

app.main()
