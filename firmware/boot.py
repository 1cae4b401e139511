"""Runs first after every reset, before main.py. Kept empty on purpose: whatever main.py
does, the REPL (and so mpremote) stays reachable with Ctrl-C."""
