"""Reading an input file once: :func:`read_input`.

A path or ``"-"`` (standard input), gzip-compressed or not, decoded by one rule whose errors
name the file and the fix; the format of a data file from its name or its first bytes; and
:class:`InputWarning`, for what was read but may not be what the file's author meant.
"""

from __future__ import annotations

import gzip
import os
import sys

__all__ = ["InputWarning", "read_input"]


#: Names that mean standard input.
_STDIN = ("-",)



class InputWarning(UserWarning):
    """A file was read, but something in it may not be what its author meant (e.g. class
    labels that differ only by surrounding spaces or by case). The command line prints these
    as ``rankfusion: warning: …``."""



def _label(source) -> str:
    return "<stdin>" if str(source) in _STDIN else os.fspath(source)



def read_input(source, *, encoding: str = "utf-8", binary: bool = False):
    """The whole content of an input file, read once: ``(text or bytes, label)``.

    ``source`` is a path, or ``"-"`` for standard input (``/dev/stdin`` works as a path);
    gzip-compressed content is decompressed whatever the name. The label names the file in
    error messages. A decoding error names the file, the line and the fix
    (``encoding="latin-1"``, ``--encoding latin-1``).

    Parameters
    ----------
    source : str or path-like
        A path, or ``"-"`` for standard input.
    encoding : str, default "utf-8"
        Text encoding (ignored with ``binary``).
    binary : bool, default False
        Return bytes instead of text.

    Returns
    -------
    (str or bytes, str)
        The content and the label naming the file in messages.
    """
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise TypeError(f"source must be a path, '-' for standard input, or a DataFrame; got "
                        f"{type(source).__name__}")
    label = _label(source)
    if str(source) in _STDIN:
        data = sys.stdin.buffer.read()
    else:
        path = os.fspath(source)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no such file: {path}")
        if os.path.isdir(path):
            raise IsADirectoryError(f"{path} is a directory, not a file")
        with open(path, "rb") as fh:
            data = fh.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ValueError(f"{label}: a damaged gzip file ({exc})") from None
    if binary:
        return data, label
    return _decode(data, label, encoding), label



def _sniff_format(data: bytes) -> str:
    if data[:4] == b"PAR1":
        return "parquet"
    head = data[:4096].decode("latin-1")
    for line in head.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        return "arff" if line.lower().startswith(("@relation", "@attribute")) else "csv"
    return "csv"



def _format_of(source, fmt: str | None, data: bytes | None = None) -> str:
    if fmt is not None:
        if fmt == "libsvm":
            return "svmlight"
        if fmt not in ("csv", "arff", "parquet", "svmlight"):
            raise ValueError("format must be 'csv', 'arff', 'parquet' or 'svmlight' "
                             f"('libsvm'), got {fmt!r}")
        return fmt
    low = os.fspath(source).lower().removesuffix(".gz")
    if low.endswith(".arff"):
        return "arff"
    if low.endswith((".svm", ".svmlight", ".libsvm")):  # sparse (docs/design.md, 'Sparse input')
        return "svmlight"
    if low.endswith((".parquet", ".pq")):
        return "parquet"
    if low.endswith((".csv", ".txt", ".tsv")):
        return "csv"
    if data is None:
        raise ValueError(f"cannot tell the format of {source!r}; use a .csv, .arff or "
                         ".parquet name or pass format=")
    return _sniff_format(data)



#: Leading bytes of binary files that are often given for a CSV by mistake.
_BINARY_MAGIC = ((b"PK\x03\x04", "a zip archive (an Excel .xlsx or .ods workbook?)"),
                 (b"\xd0\xcf\x11\xe0", "an old Excel .xls / Office file"),
                 (b"%PDF", "a PDF document"))



def _utf16_kind(data: bytes) -> tuple[str, str] | None:
    """How a file shows itself as UTF-16 (or UTF-32), and the codec to read it: its
    byte-order mark, or a NUL byte in every other place of its start (ASCII text in UTF-16
    without a mark); else None."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "UTF-32 text (it starts with a UTF-32 byte-order mark)", "utf-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "UTF-16 text (it starts with a UTF-16 byte-order mark)", "utf-16"
    head = data[:512]
    head = head[:len(head) // 2 * 2]
    if len(head) >= 4:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return ("UTF-16 text without a byte-order mark (a NUL byte after every "
                    "character)", "utf-16-le")
        if even.count(0) == len(even) and odd.count(0) == 0:
            return ("UTF-16 text without a byte-order mark (a NUL byte before every "
                    "character)", "utf-16-be")
    return None



def _decode(data: bytes, label: str, encoding: str) -> str:
    for magic, what in _BINARY_MAGIC:
        if data.startswith(magic):
            raise ValueError(f"{label}: {what}, not text; save the sheet as CSV first")
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a codec name such as 'utf-8' or 'latin-1', got "
                        f"{type(encoding).__name__} {encoding!r}")
    utf16 = _utf16_kind(data)
    if utf16 and not encoding.lower().replace("_", "").startswith(("utf-16", "utf16",
                                                                   "utf-32", "utf32")):
        what, codec = utf16
        raise ValueError(
            f"{label}: {what}, not {encoding} text (Excel's 'Unicode text' and Windows "
            f"Notepad save so); pass --encoding {codec} (encoding={codec!r}), or save the "
            "file as UTF-8")
    try:
        codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") \
            else encoding
        return data.decode(codec)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"{label}: not {encoding} text (byte 0x{data[exc.start]:02x} on line {line}); "
            "if the file is Latin-1 or Windows-1252, pass --encoding latin-1 "
            "(encoding='latin-1')") from None
