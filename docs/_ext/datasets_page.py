"""The bundled data sets page: ``.. rankfusion-datasets::`` renders one section per data set of
:func:`rankfusion.datasets.available_datasets` (shape, classes, missing values, source,
citation, licence, notes) from the package's metadata table, so the page lists what the
installed package ships. ``rankfusion datasets --name NAME`` points to the section ``#NAME``
(``_`` written ``-``)."""

from __future__ import annotations

#: Details a data set's metadata line cannot hold (reStructuredText).
EXTRA = {
    "stjude": (
        "248 bone-marrow samples of pediatric acute lymphoblastic leukemia × 985 genes, 6 "
        "classes: BCR.ABL 15, E2A.PBX1 27, Hyperdip.50 64, MLL 20, T.ALL 43, TEL.AML1 79. "
        "Columns ``gene_1`` … ``gene_985`` (the source gives no gene identifiers). Values are "
        "positive MAS-style intensities as distributed (Monti's top-985 gene filter applied, no "
        "further scaling); no missing values. The matrix is Monti, Tamayo, Mesirov & Golub "
        "(2003), *Consensus clustering*, Machine Learning 52:91–118 (supplement "
        "``leukemia.top1000.gct``, Broad Institute), of the samples of Yeoh et al. (2002), "
        "*Classification, subtype discovery, and prediction of outcome in pediatric acute "
        "lymphoblastic leukemia by gene expression profiling*, Cancer Cell 1:133–143, as "
        "redistributed in the R package ``conclus`` (GPL-2; the data carry no licence statement "
        "of their own); transposed to samples × genes, values unchanged. It is the data of "
        "``rankfusion demo`` and of Izetta et al. (2017), Table 7. In Python: "
        ":func:`rankfusion.datasets.load_stjude_leukemia` (with sample names) or "
        "``rankfusion.datasets.load(\"stjude\")``."
    ),
}


def datasets_rst() -> str:
    """One section per data set, in the order of ``available_datasets()``."""
    from rankfusion.datasets import available_datasets
    from rankfusion.datasets.loaders import _catalog

    table = available_datasets()
    catalog = _catalog()["datasets"]
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 22 12 12 10 10 10",
             "", "   * - name", "     - samples", "     - features", "     - classes / target",
             "     - missing", "     - shipped"]
    for row in table.itertuples():
        lines += [f"   * - :ref:`{row.name} <dataset-{row.name}>`", f"     - {row.n_samples}",
                  f"     - {row.n_features}", f"     - {_what(row, catalog[row.name], True)}",
                  f"     - {row.n_missing}", f"     - {'yes' if row.bundled else 'no'}"]
    lines.append("")
    for row in table.itertuples():
        e = catalog[row.name]
        lines += [f".. _dataset-{row.name}:", "", row.name, "-" * len(row.name), "",
                  _text(e["origin"]), ""]
        fields = [("shape", f"{row.n_samples} samples × {row.n_features} features, "
                   f"{_what(row, e, False)}, {row.n_missing} missing values"),
                  ("shipped", "yes" if row.bundled else
                   "no: read from ``RANKFUSION_DATA`` (or ``data_home=``)"),
                  ("source", f"{_text(e['repo'])} @ ``{e['commit']}``"),
                  ("citation", _text(e["citation"])), ("licence", _text(e["licence"]))]
        notes = e.get("notes", "")
        if notes and not notes.startswith("See rankfusion/data/"):
            fields.append(("notes", _text(notes)))
        lines += [f":{k}: {v}" for k, v in fields] + [""]
        if row.name in EXTRA:
            lines += [EXTRA[row.name], ""]
        if row.bundled:
            lines += [".. code-block:: bash", "",
                      f"   rankfusion datasets --export {row.name} --out {row.name}.csv", ""]
    return "\n".join(lines) + "\n"


def _what(row, entry: dict, short: bool) -> str:
    """The classes of a classification set; the target of a regression set."""
    if row.task != "regression":
        return f"{row.n_classes}" if short else f"{row.n_classes} classes"
    t = entry["target"]
    if short:
        return "numeric (regression)"
    kind = "integer-valued" if t["integer_valued"] else "real-valued"
    return (f"a numeric target (regression: {kind}, {t['min']:g} to {t['max']:g}, "
            f"{t['n_unique']} distinct values)")


def _text(value: str) -> str:
    return " ".join(str(value).split()).replace("*", r"\*").replace("|", r"\|").replace(
        "`", "'")


def setup(app):
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles

    class Datasets(Directive):
        """``.. rankfusion-datasets::`` — one section per bundled data set."""

        def run(self):
            from docutils import nodes

            node = nodes.section()
            node.document = self.state.document
            text = StringList(datasets_rst().splitlines(), source="rankfusion-datasets")
            nested_parse_with_titles(self.state, text, node)
            return node.children

    app.add_directive("rankfusion-datasets", Datasets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
