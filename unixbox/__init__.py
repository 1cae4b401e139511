"""MicroPython code that only the unix-port box (the virtual device) uses: the sim board, its
world channel, the littlefs image's block devices and the launcher. Never on a Pico:
host/device_files.py puts this package only on boards whose backend is "unix"."""
