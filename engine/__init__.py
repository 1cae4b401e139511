"""Pure game rules for tablemate: no I/O, no hardware, same results on CPython and MicroPython."""
