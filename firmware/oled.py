"""The 1-bit frame buffer every OLED draws into: MONO_VLSB (one byte = 8 pixels of a column,
the page layout of the SSD1306 and the SH1106) with a show() that does nothing. A panel's
driver (firmware/ssd1306.py, firmware/sh1106.py) sends the buffer to its controller; the
sim board sends it to its front-end, without loading any controller's commands.
"""

try:
    import framebuf

    _FrameBuffer = framebuf.FrameBuffer
except ImportError:  # CPython: the drivers' command layers still import; OledBase needs MicroPython
    framebuf = None
    _FrameBuffer = object


class OledBase(_FrameBuffer):
    """A 1-bit frame buffer in the SSD1306 page layout; show() is the backend's hook."""

    def __init__(self, width=128, height=64):
        if framebuf is None:
            raise ImportError("OledBase needs MicroPython's framebuf module")
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)

    def show(self):
        pass

    def contrast(self, level):
        pass

    def power(self, on):
        pass

    def invert(self, on):
        pass
