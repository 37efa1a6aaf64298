"""Reading a text file for a command, with a message in words when it cannot be read.

Every command that reads a file (records, ISS records, solver positions) reads it here,
so that a missing file, a folder, a file that may not be read and one that is not UTF-8
are said the same way everywhere, in every language (codes ``file.*``).
"""

from __future__ import annotations

from pathlib import Path

from stich.messages import StichError

__all__ = ["read_text"]


def read_text(path: str | Path, error: type[StichError] = StichError) -> str:
    """The file's text (UTF-8, a leading byte order mark dropped), or ``error`` with a
    ``file.*`` code saying in words why it cannot be read."""
    name = str(path)
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise error("file.missing", file=name) from None
    except IsADirectoryError:
        raise error("file.folder", file=name) from None
    except PermissionError:
        if p.is_dir():  # on some systems reading a folder is a permission error
            raise error("file.folder", file=name) from None
        raise error("file.no_permission", file=name) from None
    except OSError as e:
        raise error("file.unreadable", file=name,
                    reason=e.strerror or type(e).__name__) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error("file.not_utf8", file=name, offset=e.start) from None
    return text.removeprefix("\ufeff")  # a byte order mark, as some editors write
