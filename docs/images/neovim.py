#!/usr/bin/env python3
"""The screenshot of docs/editor.md, taken for real: Neovim (headless in a pseudo-terminal)
opens the bundled goofspiel.yaml with a zone misspelt in an expression, `rulebook lsp` attached
as docs/editor.md sets it up; once its diagnostic is shown, the screen (read with pyte) is
written as an SVG (rich).

    python docs/images/neovim.py [--out docs/images/neovim-diagnostic.svg]

Needs ``nvim`` (0.7 or later) on the PATH and the ``pyte`` package.
"""
from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
import struct
import sys
import termios
import tempfile
import time
from pathlib import Path

import pyte
from rich.console import Console
from rich.style import Style
from rich.text import Text

ROOT = Path(__file__).resolve().parents[2]
COLS, ROWS = 110, 24
TYPO = ("cards: \"suits where seat == p\"", "cards: \"siuts where seat == p\"")

# the set-up of docs/editor.md, in the form Neovim 0.7 takes (vim.lsp.start_client); the
# diagnostic's message under the cursor in a float, as `vim.diagnostic.open_float()` shows it
INIT = """
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.termguicolors = false
vim.cmd("highlight NormalFloat ctermbg=237 ctermfg=255")
vim.cmd("highlight FloatBorder ctermbg=237 ctermfg=250")
vim.api.nvim_create_autocmd("FileType", {{
  pattern = "yaml",
  callback = function(args)
    local client = vim.lsp.start_client({{ name = "rulebook", cmd = {{ {python!r}, "-m", "interpreter", "lsp" }},
                                          cmd_cwd = {root!r}, root_dir = vim.fs and vim.fs.dirname(args.file) or "." }})
    vim.lsp.buf_attach_client(args.buf, client)
  end,
}})
vim.api.nvim_create_autocmd("DiagnosticChanged", {{
  callback = function()
    vim.defer_fn(function() vim.diagnostic.open_float(nil, {{ scope = "line", border = "single" }}) end, 300)
  end,
}})
"""


def screen(path: Path, line: int, column: int, wait: float) -> pyte.Screen:
    """What Neovim shows after ``wait`` seconds with the cursor at (``line``, ``column``), 1-based."""
    shown = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(shown)
    with tempfile.TemporaryDirectory() as tmp:
        init = Path(tmp) / "init.lua"
        init.write_text(INIT.format(python=sys.executable, root=str(ROOT)))
        pid, fd = pty.fork()
        if pid == 0:   # the child: Neovim in a terminal of COLS x ROWS
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.environ.update(TERM="xterm-256color")
            os.chdir(path.parent)
            os.execvp("nvim", ["nvim", "--clean", "-u", str(init), f"+call cursor({line}, {column})", path.name])
        try:
            os.set_blocking(fd, False)
            end = time.monotonic() + wait
            while time.monotonic() < end:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    try:
                        stream.feed(os.read(fd, 65536))
                    except OSError:
                        break
        finally:
            os.write(fd, b"\x1b:qa!\r")
            time.sleep(0.5)
            os.waitpid(pid, 0)
    return shown


def svg(shown: pyte.Screen, title: str) -> str:
    console = Console(record=True, width=COLS, file=open(os.devnull, "w"), color_system="256", force_terminal=True)
    for y in range(ROWS):
        row = Text()
        for x in range(COLS):
            ch = shown.buffer[y][x]
            fg = None if ch.fg == "default" else _color(ch.fg)
            bg = None if ch.bg == "default" else _color(ch.bg)
            if ch.reverse:
                fg, bg = bg or "black", fg or "white"
            row.append(ch.data or " ", Style(color=fg, bgcolor=bg, bold=ch.bold, underline=ch.underscore))
        console.print(row, no_wrap=True, overflow="crop")
    return console.export_svg(title=title)


def _color(name: str) -> str:
    """A pyte colour (a name, or hex digits) as rich writes it."""
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return f"#{name}"
    name = name.replace("brown", "yellow").replace("bfight", "bright")   # (pyte's names, one misspelt)
    return f"bright_{name[6:]}" if name.startswith("bright") and not name.startswith("bright_") else name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(Path(__file__).with_name("neovim-diagnostic.svg")))
    ap.add_argument("--wait", type=float, default=12.0, help="seconds given Neovim and the server (default 12)")
    args = ap.parse_args()
    if shutil.which("nvim") is None:
        print("nvim is not on the PATH", file=sys.stderr)
        return 2
    text = (ROOT / "rulesets" / "goofspiel.yaml").read_text()
    assert TYPO[0] in text
    text = text.replace(*TYPO)
    at = text.index(TYPO[1]) + len('cards: "')
    line = text[:at].count("\n") + 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "goofspiel.yaml"
        path.write_text(text)
        shown = screen(path, line, at - text.rfind("\n", 0, at), args.wait)
    Path(args.out).write_text(svg(shown, "nvim goofspiel.yaml  (rulebook lsp)"))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
