"""Sparse data files into scipy.sparse matrices (docs/design.md, 'Sparse input').

:func:`read_sparse_arff` reads Weka's sparse ARFF rows (``{index value, ...}``, 0-based
attribute indices in increasing order; an unlisted numeric value is 0, an unlisted nominal
value the first declared one) and :func:`read_svmlight` reads svmlight / libsvm files
(``label index:value ...``, through scikit-learn's ``load_svmlight_file``). Both return the
features as a float64 ``scipy.sparse.csr_matrix`` — never a dense array — with the feature
names in its ``feature_names`` attribute, and the class as a pandas Series.
:func:`rankfusion.io.load_data` uses them for ``.svm``/``.svmlight``/``.libsvm`` files (or
``format="svmlight"``) and for ARFF files with ``sparse=True``. :func:`densify` makes a
sparse matrix dense when asked, within the memory check.

Choices (each a documented rule, never a guess):

* ARFF: dense rows may be mixed with sparse ones (Weka reads both); indices must be
  increasing and unique (Weka's rule), within ``0 … p−1``; a missing value ``?`` among the
  features is refused (a sparse matrix has no missing values: read the file densely); nominal
  features hold their declared-value codes (Weka's internal values); string and date
  attributes are refused; Weka's instance weights ``{…}, {w}`` are refused.
* svmlight: indices are **one-based** (the format's definition, libsvm's and svmlight's);
  a file with index 0 is refused naming ``zero_based=True``; query ids (``qid:``) are refused
  (they belong to learning-to-rank data, not classification); ``#`` comments are skipped; a
  NaN or inf value is refused.
"""

from __future__ import annotations

import numpy as np

from .._utils.lazy import lazy_module
from .._utils.sparse import densify
from .arff import (
    _parse_attribute,
    _split,
    _strip_comment,
    _unquote,
    arff_unicode_text,
    check_attribute_text,
)
from .inputs import read_input

pd = lazy_module("pandas")

__all__ = ["read_sparse_arff", "read_svmlight", "densify", "SVMLIGHT_SUFFIXES"]

#: File endings read as svmlight / libsvm by :func:`rankfusion.io.load_data` (``.gz`` too).
SVMLIGHT_SUFFIXES = (".svm", ".svmlight", ".libsvm")


def _target_index(target, names, label) -> int:
    p = len(names)
    if target is None:
        return p - 1
    if isinstance(target, bool):
        raise TypeError(f"target must be a column name or position, got {target!r}")
    if isinstance(target, (int, np.integer)):
        j = int(target)
        if not -p <= j < p:
            raise ValueError(f"{label}: target position {j} is out of range for {p} columns")
        return j % p
    if isinstance(target, str):
        if target not in names:
            raise ValueError(f"{label}: no attribute named {target!r} (target=); the "
                             f"attributes are {names[:10]}{' …' if p > 10 else ''}")
        return names.index(target)
    raise TypeError(f"target must be a column name or position, got {type(target).__name__}")


def _header(text: str, label):
    names, kinds, cats = [], [], []
    lines = arff_unicode_text(text).splitlines()
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if "%" in line:
            line = _strip_comment(line)
        if not line:
            continue
        low = line.lower()
        if low.startswith("@relation"):
            continue
        if low.startswith("@attribute"):
            n, k, c = _parse_attribute(line[10:], lineno)
            check_attribute_text(label, lineno, n, c)
            names.append(n)
            kinds.append(k)
            cats.append(c)
        elif low.startswith("@data"):
            if not names:
                raise ValueError(f"{label}: @data before any @attribute")
            return names, kinds, cats, lines, lineno
        else:
            raise ValueError(f"{label}, line {lineno}: unexpected header line {line[:60]!r}")
    raise ValueError(f"{label}: not an ARFF file (no @data section)")


def _value(tok, j, lineno, label, names, kinds, lut):
    if tok == "?":
        raise ValueError(f"{label}, line {lineno}: attribute {names[j]!r} is missing ('?'); a "
                         "sparse matrix holds no missing values: read the file without "
                         "sparse=True")
    if kinds[j] == "nominal":
        code = lut[j].get(_unquote(tok))
        if code is None:
            raise ValueError(f"{label}, line {lineno}: value {_unquote(tok)!r} of attribute "
                             f"{names[j]!r} is not among its declared values")
        return float(code)
    try:
        v = float(tok)
    except ValueError:
        raise ValueError(f"{label}, line {lineno}: attribute {names[j]!r} is numeric but has "
                         f"the value {tok!r}") from None
    if not np.isfinite(v):
        raise ValueError(f"{label}, line {lineno}: attribute {names[j]!r} has the value {v}, "
                         "not a finite number")
    return v


def parse_sparse_arff(text: str, label, target=None, *, with_places: bool = False):
    """``(X csr, y Series, feature names)`` of an ARFF text (rules: module docstring); with
    ``with_places`` also ``(the file line of each row, the class attribute's type)``."""
    import scipy.sparse as sp

    names, kinds, cats, lines, data_line = _header(text, label)
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"{label}: the attribute name {dup!r} is declared twice")
    p = len(names)
    t = _target_index(target, names, label)
    for j, k in enumerate(kinds):
        if k in ("string", "date") and j != t:
            raise ValueError(f"{label}: attribute {names[j]!r} is of type {k}; a sparse matrix "
                             "holds numbers only (drop it or read the file without sparse=True)")
    lut = [None if c is None else {v: i for i, v in enumerate(c)} for c in cats]
    rows, cols, vals, labels, places = [], [], [], [], []
    r = 0
    for lineno in range(data_line + 1, len(lines) + 1):
        line = lines[lineno - 1].strip()
        if "%" in line:
            line = _strip_comment(line)
        if not line:
            continue
        row_label = None
        if line.startswith("{"):
            end = line.find("}")
            if end < 0:
                raise ValueError(f"{label}, line {lineno}: unterminated sparse row")
            if line[end + 1:].strip():
                raise ValueError(f"{label}, line {lineno}: text after the sparse row "
                                 f"({line[end + 1:].strip()[:30]!r}); instance weights "
                                 "'{w}' are not supported")
            inner = line[1:end].strip()
            prev = -1
            seen_target = False
            for item in (_split(inner) if inner else []):
                parts = item.strip().split(None, 1)
                if len(parts) != 2:
                    raise ValueError(f"{label}, line {lineno}: sparse entry {item.strip()!r} "
                                     "must be 'index value'")
                try:
                    j = int(parts[0])
                except ValueError:
                    raise ValueError(f"{label}, line {lineno}: sparse index {parts[0]!r} is not "
                                     f"an attribute number 0…{p - 1}") from None
                if j < 0 or j >= p:
                    raise ValueError(f"{label}, line {lineno}: sparse index {j} is outside "
                                     f"0…{p - 1} (the header declares {p} attributes)")
                if j <= prev:
                    raise ValueError(f"{label}, line {lineno}: sparse index {j} after {prev}; "
                                     "indices must be increasing and unique (Weka's rule)")
                prev = j
                tok = parts[1].strip()
                if j == t:
                    row_label = _unquote(tok)
                    seen_target = True
                    continue
                v = _value(tok, j, lineno, label, names, kinds, lut)
                if v != 0.0:
                    rows.append(r)
                    cols.append(j if j < t else j - 1)
                    vals.append(v)
            if not seen_target:  # unlisted: 0 / the first declared value
                row_label = cats[t][0] if kinds[t] == "nominal" else "0"
        else:
            toks = _split(line)
            if len(toks) != p:
                raise ValueError(f"{label}, line {lineno}: {len(toks)} values but {p} "
                                 "attributes")
            for j, tok in enumerate(toks):
                if j == t:
                    row_label = _unquote(tok.strip())
                    continue
                v = _value(tok.strip(), j, lineno, label, names, kinds, lut)
                if v != 0.0:
                    rows.append(r)
                    cols.append(j if j < t else j - 1)
                    vals.append(v)
        labels.append(row_label)
        places.append(f"line {lineno}")
        r += 1
    if r == 0:
        raise ValueError(f"{label}, line {data_line}: the @data section has no data rows")
    X = sp.csr_matrix((np.asarray(vals, dtype=np.float64),
                       (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
                      shape=(r, p - 1))
    feature_names = [nm for j, nm in enumerate(names) if j != t]
    y = _target_series(labels, kinds[t], cats[t], names[t], label, places)
    X.feature_names = np.asarray(feature_names, dtype=object)
    if with_places:
        return X, y, feature_names, (places, kinds[t])
    return X, y, feature_names


def _target_series(labels, kind, cats, name, label, places):
    arr = np.asarray(labels, dtype=object)
    if any(v == "?" for v in labels):
        i = next(i for i, v in enumerate(labels) if v == "?")
        raise ValueError(f"{label}, {places[i]}: the class {name!r} is missing ('?')")
    if kind == "nominal":
        lut = {v: i for i, v in enumerate(cats)}
        bad = [v for v in labels if v not in lut]
        if bad:
            i = labels.index(bad[0])
            raise ValueError(f"{label}, {places[i]}: class value {bad[0]!r} is not among the "
                             f"declared values {cats}")
        return pd.Series(pd.Categorical.from_codes([lut[v] for v in labels], categories=cats),
                         name=name)
    if kind == "numeric":
        try:
            num = arr.astype(np.float64)
        except ValueError:
            raise ValueError(f"{label}: the class {name!r} is numeric but holds text") from None
        if np.all(num == np.round(num)):
            return pd.Series(num.astype(np.int64), name=name)
        return pd.Series(num, name=name)
    return pd.Series(arr, name=name)


def read_sparse_arff(source, target=None, *, encoding: str = "utf-8"):
    """Features and class of an ARFF file as a sparse matrix and a Series.

    Parameters
    ----------
    source : str or path
        An ARFF file (sparse rows ``{index value, ...}``, dense rows too); ``"-"`` = standard
        input.
    target : str or int, optional
        The class attribute, by name or position (negative from the end); default the last.
    encoding : str, default "utf-8"
        The text encoding.

    Returns
    -------
    X : scipy.sparse.csr_matrix of float64, shape (n, p)
        The other attributes (nominal ones as their declared-value codes); its attribute
        ``feature_names`` holds their names.
    y : Series
        The class (a categorical for a nominal attribute).

    Raises
    ------
    ValueError
        An index out of range, repeated or out of order, a bad or missing value, a string
        attribute, an empty file or one without data rows (naming the file and the line).

    Examples
    --------
    >>> import tempfile, os
    >>> text = ("@relation r\\n@attribute a numeric\\n@attribute b numeric\\n"
    ...         "@attribute c {x,y}\\n@data\\n{0 2, 2 y}\\n{1 5}\\n")
    >>> path = os.path.join(tempfile.mkdtemp(), "r.arff")
    >>> _ = open(path, "w").write(text)
    >>> X, y = read_sparse_arff(path)
    >>> X.toarray().tolist(), y.tolist()
    ([[2.0, 0.0], [0.0, 5.0]], ['y', 'x'])
    """
    text, label = read_input(source, encoding=encoding)
    X, y, _ = parse_sparse_arff(text, label, target)
    return X, y


def read_svmlight(source, *, zero_based: bool = False, n_features: int | None = None):
    """Features and class of an svmlight / libsvm file (``label index:value ...``).

    Parameters
    ----------
    source : str or path
        The file (``.gz``/``.bz2`` too, as scikit-learn reads them).
    zero_based : bool, default False
        The indices start at 0. Default one-based, the format's definition: index 0 is then
        refused naming this option (never guessed from the file).
    n_features : int, optional
        The number of features (default: the largest index in the file).

    Returns
    -------
    X : scipy.sparse.csr_matrix of float64, shape (n, p)
        Its attribute ``feature_names`` holds ``"1" … "p"`` (the file's indices; ``"0" …``
        when zero-based).
    y : Series
        The labels (integers when every label is a whole number), named ``"class"``.

    Raises
    ------
    ValueError
        A bad value or label, an index out of order, repeated, negative or 0 (one-based),
        query ids, several labels per line, NaN/inf values, an empty file.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "d.svm")
    >>> _ = open(path, "w").write("1 1:0.5 3:2\\n-1 2:1 # a comment\\n")
    >>> X, y = read_svmlight(path)
    >>> X.toarray().tolist(), y.tolist()
    ([[0.5, 0.0, 2.0], [0.0, 1.0, 0.0]], [1, -1])
    """
    from .._utils.validation import check_bool

    zero_based = check_bool(zero_based, "zero_based")
    if n_features is not None and (isinstance(n_features, bool) or not isinstance(
            n_features, (int, np.integer)) or n_features < 1):
        raise ValueError(f"n_features must be a positive int or None, got {n_features!r}")
    data, label = read_input(source, binary=True)  # gzip content decompressed
    return svmlight_from_bytes(data, label, zero_based=zero_based, n_features=n_features)


#: The most features an svmlight file's largest index makes without ``n_features`` said, when
#: the file is small: a file of ``b`` bytes may make up to ``max(SVMLIGHT_MIN_FEATURES,
#: SVMLIGHT_FEATURES_PER_BYTE * b)``. Each feature costs every ranker a few numbers, so one
#: stray index ``1000000000`` in a 60-byte file would otherwise mean gigabytes and minutes
#: of work on features the file never describes (docs/design.md, 'Sparse input').
SVMLIGHT_MIN_FEATURES = 1 << 20
#: See :data:`SVMLIGHT_MIN_FEATURES`.
SVMLIGHT_FEATURES_PER_BYTE = 64


def svmlight_data_lines(data: bytes) -> list[int]:
    """The 1-based file line of each data row of an svmlight file: the lines holding
    something besides spaces and a ``#`` comment (the rows scikit-learn's reader makes)."""
    return [i for i, ln in enumerate(data.split(b"\n"), 1)
            if ln.split(b"#", 1)[0].strip()]


def svmlight_from_bytes(data: bytes, label, *, zero_based: bool = False,
                        n_features: int | None = None):
    """:func:`read_svmlight` of a file's bytes (``label`` names it in messages)."""
    import io as _io

    from sklearn.datasets import load_svmlight_file

    if not data.strip() or all(not ln.strip() or ln.lstrip().startswith(b"#")
                               for ln in data.splitlines()):
        raise ValueError(f"{label}: the svmlight file has no data lines")
    try:
        X, y, qid = load_svmlight_file(_io.BytesIO(data), n_features=n_features,
                                       zero_based=zero_based, query_id=True, dtype=np.float64)
    except ValueError as exc:
        msg = str(exc)
        if "Invalid index 0" in msg:
            msg += " (indices are one-based by default; pass zero_based=True for a file " \
                   "counting from 0)"
        elif "n_features" in msg:  # an index beyond the n_features given
            msg = (f"an index is larger than n_features={n_features} ({msg}); give the "
                   "number of features the file has")
        raise ValueError(f"{label}: not a valid svmlight/libsvm file: {msg}") from None
    if qid.size and np.any(qid != 0):
        raise ValueError(f"{label}: the file has query ids (qid:); they belong to "
                         "learning-to-rank data, not to a classification data set")
    X = X.tocsr()
    limit = max(SVMLIGHT_MIN_FEATURES, SVMLIGHT_FEATURES_PER_BYTE * len(data))
    if n_features is None and X.shape[1] > limit:
        k = int(np.argmax(X.indices))
        i = int(np.searchsorted(X.indptr, k, side="right") - 1)
        line = svmlight_data_lines(data)[i]
        top = int(X.indices[k]) + (0 if zero_based else 1)
        raise ValueError(
            f"{label}, line {line}: feature index {top:,} would make {X.shape[1]:,} features "
            f"of a {len(data):,}-byte svmlight file (without n_features, at most {limit:,} "
            "are taken from the largest index); correct the index, or if the file really has "
            f"that many features, say so: n_features={X.shape[1]}")
    if not np.isfinite(X.data).all():
        k = int(np.flatnonzero(~np.isfinite(X.data))[0])
        i = int(np.searchsorted(X.indptr, k, side="right") - 1)
        raise ValueError(f"{label}, line {svmlight_data_lines(data)[i]}: the value "
                         f"{X.data[k]} is not a finite number (a sparse matrix has no missing "
                         "values)")
    if not np.isfinite(y).all():
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise ValueError(f"{label}, line {svmlight_data_lines(data)[i]}: the label {y[i]} is "
                         "not a finite number")
    X.eliminate_zeros()
    labels = y.astype(np.int64) if np.all(y == np.round(y)) else y
    X.feature_names = np.asarray([str(j + (0 if zero_based else 1))
                                  for j in range(X.shape[1])], dtype=object)
    return X, pd.Series(labels, name="class")
