"""Names and labels as text (docs/design.md, 'Inputs'): one Unicode form, nothing invisible.

Two spellings that print alike must not be two names: ``café`` written with the composed
``é`` (U+00E9) and with ``e`` + a combining acute accent (U+0301) are one name after Unicode
normalisation to NFC (composed form; Unicode Standard Annex #15), which every reader applies to
column headers, class labels and list names. A character that prints as nothing (a zero-width
space U+200B, a zero-width joiner U+200D, a word joiner U+2060, a byte-order mark U+FEFF inside
a name, a direction mark …) cannot be seen in a name nor removed by normalisation, so a name
holding one is refused, naming the character and where it is. Kept free of pandas and numpy.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "INVISIBLE_CHARACTERS",
    "invisible_character",
    "invisible_message",
    "nfc",
    "spellings_text",
]

#: Code points that print as nothing: the soft hyphen, the combining grapheme joiner, the
#: Mongolian vowel separator, zero-width space / non-joiner / joiner, the left-to-right and
#: right-to-left marks and embeddings, the word joiner and invisible operators, the isolates,
#: and the zero-width no-break space (U+FEFF, the byte-order mark).
INVISIBLE_CHARACTERS = frozenset(
    [
        0x00AD,
        0x034F,
        0x061C,
        0x180E,
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2065),
        *range(0x2066, 0x206A),
        0xFEFF,
    ]
)


def invisible_character(text: str) -> str | None:
    """The first invisible character of ``text`` as ``U+200B (ZERO WIDTH SPACE)``, or None.

    Parameters
    ----------
    text : str
        A name or a label.

    Returns
    -------
    str or None

    Examples
    --------
    >>> invisible_character("a\\u200bb")
    'U+200B (ZERO WIDTH SPACE)'
    >>> invisible_character("café") is None
    True
    """
    if text.isascii():
        return None
    for ch in text:
        if ord(ch) in INVISIBLE_CHARACTERS:
            return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'an invisible character')})"
    return None


def invisible_message(text: str, where: str, fix: str = "remove it from the file") -> str | None:
    """The refusal of a name holding an invisible character, or None.

    Parameters
    ----------
    text : str
        The name or label.
    where : str
        What and where it is (``"data.csv, line 1: column 2 name"``).
    fix : str, default "remove it from the file"
        The way out.

    Returns
    -------
    str or None
        ``"{where} {text!r} holds the invisible character U+… (…); remove it …"``.
    """
    found = invisible_character(text)
    if found is None:
        return None
    return (
        f"{where} {ascii(text)} holds the invisible character {found}, which prints as "
        f"nothing (two names that look alike would differ); {fix}"
    )


def nfc(text: str) -> str:
    """``text`` in Unicode normalisation form NFC (composed characters); ASCII as it is.

    Examples
    --------
    >>> nfc("cafe\\u0301") == "caf\\u00e9"
    True
    """
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text)


def spellings_text(merged: dict) -> str:
    """``{normalised: {raw spellings}}`` as ``'caf\\xe9' and 'cafe\\u0301' → 'café'`` (the
    raw spellings with escapes, since they print alike), ``;``-separated."""
    return "; ".join(
        " and ".join(ascii(v) for v in sorted(raw)) + f" → {k!r}" for k, raw in merged.items()
    )
