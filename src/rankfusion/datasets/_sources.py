"""Where each real dataset comes from and how its raw file is parsed.

Every entry of :data:`SOURCES` names the raw file(s) as laid out in the shared datasets folder
(``<data_home>/<folder>/<file>``), the parser that turns them into one DataFrame (features
first, the class in the column ``"class"``; nominal attributes as pandas categoricals, missing
values NaN), and the provenance printed in ``DESCR``. ``tools/bundle_datasets.py`` runs these
parsers to write the compressed copies shipped in ``rankfusion/data/datasets/``; a set that is
not shipped is parsed from ``data_home`` by the same code at load time.

Provenance (repository, commit) is the one recorded when the raw files were collected; UCI data
are distributed under CC BY 4.0, the other licences are stated per entry.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._utils.tabular import read_csv
from ..io import read_arff

__all__ = ["SOURCES", "Source", "parse", "MONTI_GENES"]

#: Genes kept by the top-by-SD filter of the Monti substitutes (Monti et al. 2003's sizes,
#: as listed in Izetta et al. 2017, Table 7).
MONTI_GENES = {"monti_lung": 1000, "monti_cns": 989, "monti_novartis": 1000}

UCI = "CC BY 4.0 (UCI Machine Learning Repository policy)"
OPENML = "openml-datasets (ODC-PDDL tag in datapackage.json); data from the UCI repository"


@dataclass(frozen=True)
class Source:
    """Provenance and parser of one dataset."""

    folder: str
    files: tuple[str, ...]
    parser: str
    repo: str
    commit: str
    origin: str
    citation: str
    licence: str
    notes: str = ""
    options: dict = field(default_factory=dict)
    group: str = ""
    #: ``"classification"`` (the class a categorical of labels) or ``"regression"`` (a numeric
    #: target, kept as float64).
    task: str = "classification"
    #: For a set read from an installed package's data files rather than ``data_home``: the
    #: package (``folder`` is then the folder inside it).
    package: str = ""


def _path(home, src: Source, k: int = 0) -> str:
    if src.package:
        from importlib import resources
        return os.fspath(resources.files(src.package).joinpath(src.folder, src.files[k]))
    return os.path.join(home, src.folder, src.files[k])


def _finish(frame: pd.DataFrame, target: str, task: str = "classification") -> pd.DataFrame:
    """Move the class column last, named ``class``: a categorical of strings, or for a
    regression set the numeric target as float64."""
    y = frame.pop(target)
    if task == "regression":
        values = pd.to_numeric(y, errors="raise").to_numpy(dtype=np.float64)
        if np.isnan(values).any():
            raise ValueError(f"the regression target {target!r} has missing values")
        frame = frame.reset_index(drop=True)
        return pd.concat([frame, pd.DataFrame({"class": values})], axis=1)
    if isinstance(y.dtype, pd.CategoricalDtype):
        y = y.cat.rename_categories([str(c) for c in y.cat.categories])
    else:
        labels = y.astype(str)
        y = pd.Series(pd.Categorical(labels, categories=sorted(set(labels),
                                                                key=_label_key)), name="class")
    frame = frame.reset_index(drop=True)
    cls = pd.Categorical(np.asarray(y, dtype=object), categories=y.cat.categories)
    return pd.concat([frame, pd.DataFrame({"class": cls})], axis=1)


def _label_key(s: str):
    """Numeric labels in numeric order (``"2" < "10"``), text labels after, alphabetically."""
    try:
        return (0, float(s), "")
    except ValueError:
        return (1, 0.0, s)


def _arff(home, src):
    frames = [read_arff(_path(home, src, k)) for k in range(len(src.files))]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    frame.attrs = {}
    target = src.options.get("target", frame.columns[-1])
    return _finish(frame, target, src.task)


def _mlbench(home, src):
    """R ``write.csv`` output: quoted columns are R factors (nominal), ``NA`` is missing."""
    path = _path(home, src)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        text = fh.read()
    rows = list(csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONE))
    header = [h.strip('"') for h in rows[0]]
    body = rows[1:]
    cols = {}
    for j, name in enumerate(header):
        raw = [r[j] for r in body]
        quoted = any(v.startswith('"') for v in raw)
        logical = all(v in ("TRUE", "FALSE", "NA") for v in raw)
        vals = [v.strip('"') for v in raw]
        if quoted or logical:
            miss = [v == "NA" and not r.startswith('"') for v, r in zip(vals, raw)]
            present = sorted({v for v, m in zip(vals, miss) if not m}, key=_label_key)
            if logical:
                present = [c for c in ("FALSE", "TRUE") if c in present]
            cols[name] = pd.Categorical([None if m else v for v, m in zip(vals, miss)],
                                        categories=present)
        else:
            cols[name] = np.array([np.nan if v == "NA" else float(v) for v in vals])
    frame = pd.DataFrame(cols, columns=header)
    return _finish(frame, src.options["target"])


def _csv(home, src):
    opts = src.options
    frame = read_csv(_path(home, src), header=opts.get("header", "infer"),
                        na_values=opts.get("na_values"), sep=opts.get("sep", ","))
    frame = frame.drop(columns=list(opts.get("drop", ())))
    if opts.get("header", "infer") is None:
        frame.columns = [f"{opts.get('prefix', 'x')}{j + 1}" for j in range(frame.shape[1] - 1)] \
            + ["__class__"]
        target = "__class__"
    else:
        target = opts["target"]
    return _finish(frame, target)


def _golub_like(home, src):
    """The golubEsets export (samples × probes with phenotype columns first)."""
    frame = read_csv(_path(home, src), compression="gzip")
    meta = [c for c in ("sample", "ALL.AML", "class3", "BM.PB", "Gender", "Source", "class")
            if c in frame.columns]
    target = src.options["target"]
    y = frame[target]
    values = frame.drop(columns=meta)
    frame = pd.DataFrame(values.to_numpy(dtype=np.float64), columns=list(values.columns))
    frame = pd.concat([frame, pd.DataFrame({"__class__": y.to_numpy()})], axis=1)
    return _finish(frame, "__class__")


def _mat(home, src):
    import scipy.io as sio

    path = _path(home, src)
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as fh:
            m = sio.loadmat(io.BytesIO(fh.read()))
    else:
        m = sio.loadmat(path)
    X = np.asarray(m["X"], dtype=np.float64)
    y = np.asarray(m["Y"]).ravel()
    frame = pd.DataFrame(X, columns=[f"{src.options.get('prefix', 'x')}{j + 1}"
                                     for j in range(X.shape[1])])
    mapping = src.options.get("labels")
    labels = [mapping[int(v)] if mapping else str(int(v)) for v in y]
    order = list(mapping.values()) if mapping else sorted(set(labels), key=_label_key)
    frame["class"] = pd.Categorical(labels, categories=order)
    return frame


def _desouto(home, src):
    """De Souto et al. (2008) benchmark text: genes × samples, first row ``GENES`` + labels."""
    path = _path(home, src)
    with open(path, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split("\t")
    labels = header[1:]
    values = read_csv(path, sep="\t", skiprows=1, header=None, index_col=0)
    frame = pd.DataFrame(values.to_numpy(dtype=np.float64).T, columns=list(values.index))
    keep = src.options.get("keep")
    lab = np.array(labels, dtype=object)
    mask = np.isin(lab, keep) if keep else np.ones(lab.shape[0], dtype=bool)
    frame = frame.loc[mask].reset_index(drop=True)
    order = [c for c in (keep or sorted(set(labels))) if c in set(lab[mask])]
    frame["class"] = pd.Categorical(lab[mask], categories=order)
    return frame


def _robot(home, src):
    """UCI Robot Execution Failures: a label line, then 15 lines of 6 integers."""
    with open(_path(home, src), encoding="utf-8") as fh:
        lines = [ln.strip() for ln in fh]
    rows, labels, k = [], [], 0
    while k < len(lines):
        if not lines[k]:
            k += 1
            continue
        label = lines[k]
        block = [list(map(float, lines[k + 1 + t].split())) for t in range(15)]
        rows.append(np.asarray(block).ravel())
        labels.append(label)
        k += 16
    names = [f"{f}_{t + 1}" for t in range(15) for f in ("Fx", "Fy", "Fz", "Tx", "Ty", "Tz")]
    frame = pd.DataFrame(np.vstack(rows), columns=names)
    order = list(dict.fromkeys(labels))
    frame["class"] = pd.Categorical(labels, categories=order)
    return frame


def _mfeat(home, src):
    """One view of UCI Multiple Features; columns renamed ``<view>_<j>``."""
    view = src.options["view"]
    path = _path(home, src)
    if path.endswith(".txt"):  # mfeat-fou: class first, space separated
        raw = np.loadtxt(path)
        X, y = raw[:, 1:], raw[:, 0].astype(int)
    else:
        frame = read_arff(path)
        y = frame.pop("class").astype(str).astype(int).to_numpy()
        X = frame.to_numpy(dtype=np.float64)
    out = pd.DataFrame(X, columns=[f"{view}_{j + 1}" for j in range(X.shape[1])])
    out["class"] = pd.Categorical([str(v - 1) for v in y],
                                  categories=[str(d) for d in range(10)])
    return out


def _sklearn_diabetes(home, src):
    """scikit-learn's raw diabetes files: 442 rows of 10 space-separated values, and the
    target (one value a row)."""
    X = np.loadtxt(_path(home, src, 0))
    y = np.loadtxt(_path(home, src, 1))
    frame = pd.DataFrame(X, columns=list(src.options["names"]))
    frame["target"] = y
    return _finish(frame, "target", src.task)


_PARSERS = {"arff": _arff, "mlbench": _mlbench, "csv": _csv, "golub": _golub_like,
            "sklearn_diabetes": _sklearn_diabetes, "mat": _mat, "desouto": _desouto,
            "robot": _robot, "mfeat": _mfeat}

_OPENML_COMMIT = "1e58ec568e0c1ad07909bc0f967a1fd3f5a9e5b3"
_DESOUTO = dict(repo="padilha/biclustlib", commit="cdbed0b5fb29ebf9e6df45011e000a9cab41056e",
                licence="GPL-3 (repository); data of de Souto et al. (2008)")
_MLBENCH = dict(repo="R package mlbench 2.1 (Debian r-cran-mlbench)", commit="2.1",
                licence="GPL-2 (mlbench); " + UCI)
_WEKA = dict(repo="Debian package weka 3.6.14 (data/ ARFF examples)", commit="3.6.14",
             licence="GPL (Weka distribution); " + UCI)
_MONTI = ("Monti, Tamayo, Mesirov & Golub (2003). Consensus clustering. Machine Learning 52, "
          "91-118; de Souto, Costa, de Araujo, Ludermir & Schliep (2008). Clustering cancer "
          "gene expression data: a comparative study. BMC Bioinformatics 9:497")


def _robot_src(k: int) -> Source:
    return Source("robot_execution_failures", (f"lp{k}.data",), "robot",
                  "diegoscr/Desafio2id3454", "209235ac413d510c9e9c126271557ce5ce539e1a",
                  "UCI Robot Execution Failures",
                  "Lopes & Camarinha-Matos (1998). Feature transformation strategies for a "
                  "robot learning problem. Feature Extraction, Construction and Selection, "
                  "Springer.", UCI, "90 features = 15 time steps x (Fx, Fy, Fz, Tx, Ty, Tz).",
                  group="robot")


def _mfeat_src(view: str, file: str) -> Source:
    if file.endswith(".txt"):
        repo, commit = "Shihab-Shahriar/UCI_Dataset", "db9e6a2cc0a7c2eaf35a15fd306a5c3f0cba0329"
    else:
        repo, commit = "datasets/openml-datasets", _OPENML_COMMIT
    return Source("multiple_features", (file,), "mfeat", repo, commit,
                  "UCI Multiple Features (mfeat)",
                  "Duin, R.P.W. Multiple Features data set, UCI Machine Learning Repository; "
                  "van Breukelen, Duin, Tax & den Hartog (1998). Kybernetika 34(4).", UCI,
                  "Handwritten digits 0-9, 200 per class, UCI row order (same rows in every "
                  "view).", {"view": view}, group="mfeat")


SOURCES: dict[str, Source] = {
    "pima": Source("pima_diabetes", ("diabetes.arff",), "arff", "datasets/openml-datasets",
                   _OPENML_COMMIT, "UCI Pima Indians Diabetes (OpenML 37)",
                   "Smith, Everhart, Dickson, Knowler & Johannes (1988). Using the ADAP learning "
                   "algorithm to forecast the onset of diabetes mellitus. Proc. Symp. Computer "
                   "Applications in Medical Care, 261-265.", OPENML,
                   "Zeros stand for missing values in some attributes (as in the original); "
                   "they are kept as zeros."),
    "wbc": Source("breast_cancer_wisconsin_original", ("breast-w.arff",), "arff",
                  "datasets/openml-datasets", _OPENML_COMMIT,
                  "UCI Breast Cancer Wisconsin (Original) (OpenML 15)",
                  "Wolberg & Mangasarian (1990). Multisurface method of pattern separation for "
                  "medical diagnosis applied to breast cytology. PNAS 87, 9193-9196.", OPENML,
                  "16 missing values in Bare_Nuclei; dropna=True gives the 683 complete rows."),
    "parkinsons": Source("parkinsons", ("parkinsons.data",), "csv", "tirobi/HxCapstone-Prj2",
                         "3ccfbb4281e21741fe2e1e7a12006bf54fd49910", "UCI Parkinsons",
                         "Little, McSharry, Hunter, Spielman & Ramig (2009). Suitability of "
                         "dysphonia measurements for telemonitoring of Parkinson's disease. IEEE "
                         "Trans. Biomed. Eng. 56(4), 1015-1022.", UCI,
                         "Class 'status': 1 = Parkinson's (147), 0 = healthy (48); the "
                         "recording 'name' column is dropped.",
                         {"target": "status", "drop": ("name",)}),
    "german_credit": Source("german_credit", ("credit-g.arff",), "arff",
                            "datasets/openml-datasets", _OPENML_COMMIT,
                            "UCI Statlog German Credit (OpenML 31)",
                            "Hofmann, H. Statlog (German Credit Data), UCI Machine Learning "
                            "Repository.", OPENML, "13 nominal + 7 numeric attributes."),
    "golub": Source("golub_leukemia", ("golub_merge_72x7129.csv.gz",), "golub", "bioc/golubEsets",
                    "d637cde1eca2cd59bbc11507ef27db54a0de176f",
                    "Golub et al. ALL/AML (train + test merged), Bioconductor golubEsets",
                    "Golub et al. (1999). Molecular classification of cancer: class discovery "
                    "and class prediction by gene expression monitoring. Science 286, 531-537.",
                    "LGPL (golubEsets package)",
                    "Raw Affymetrix average differences, no thresholding.",
                    {"target": "ALL.AML"}),
    "leukemia_3c": Source("leukemia_3c", ("leukemia_3c_72x7129.csv.gz",), "golub",
                          "bioc/golubEsets", "d637cde1eca2cd59bbc11507ef27db54a0de176f",
                          "Golub et al. ALL-B / ALL-T / AML (derived from golubEsets)",
                          "Golub et al. (1999). Science 286, 531-537.",
                          "LGPL (golubEsets package)",
                          "class = AML, else ALL-B / ALL-T from the T.B.cell phenotype.",
                          {"target": "class"}),
    "pomeroy_cns": Source("pomeroy_cns_outcome", ("CNS.mat",), "mat",
                          "Zhang-ZeSheng/Feature-Selection-Datasets",
                          "e61f7702a8c520cfd33d0e7b94cedb99df4466aa",
                          "Pomeroy et al. dataset C (medulloblastoma outcome), Kent Ridge",
                          "Pomeroy et al. (2002). Prediction of central nervous system embryonal "
                          "tumour outcome based on gene expression. Nature 415, 436-442.",
                          "no licence stated (Broad Institute / Kent Ridge repository data)",
                          "Y=1 (21) read as 'failure' and Y=2 (39) as 'survivor' from the "
                          "counts Pomeroy et al. report; no file with named labels was found.",
                          {"labels": {1: "failure", 2: "survivor"}, "prefix": "g"}),
    "monti_lung_full": Source("monti_lung", ("bhattacharjee-2001_database.txt",), "desouto",
                              origin="Bhattacharjee et al. (2001) lung, de Souto et al. "
                              "benchmark version (substitute for Monti's LungA)",
                              citation="Bhattacharjee et al. (2001). PNAS 98, 13790-13795; "
                              + _MONTI,
                              notes="The 6 SCLC samples are dropped (Monti's LungA).",
                              options={"keep": ["AD", "SQ", "COID", "NL"]}, group="monti",
                              **_DESOUTO),
    "monti_cns_full": Source("monti_cns", ("pomeroy-2002-v2_database.txt",), "desouto",
                             origin="Pomeroy et al. (2002) dataset A, de Souto et al. benchmark "
                             "version (substitute for Monti's brain_morpho)",
                             citation="Pomeroy et al. (2002). Nature 415, 436-442; " + _MONTI,
                             notes="The same 42 samples and 5 classes as Monti.",
                             group="monti", **_DESOUTO),
    "monti_novartis_full": Source("monti_novartis", ("su-2001_database.txt",), "desouto",
                                  origin="Su et al. (2001) multi-tissue, de Souto et al. "
                                  "benchmark version (substitute for Monti's Novartis_BPLC)",
                                  citation="Su et al. (2002). Large-scale analysis of the human "
                                  "and mouse transcriptomes. PNAS 99, 4465-4470; " + _MONTI,
                                  notes="Subset BR/PR/LU/CO (Monti's BPLC), 103 samples.",
                                  options={"keep": ["BR", "PR", "LU", "CO"]}, group="monti",
                                  **_DESOUTO),
    "libras": Source("libras_movement", ("movement_libras.data",), "csv", "finn-schofield/gp-fc",
                     "2988380190a308593bd88b1be4c6ae982b10dca1", "UCI Libras Movement",
                     "Dias, Peres & Biscaro (2009). Hand movement recognition for Brazilian Sign "
                     "Language: a study using distance-based neural networks. IJCNN 2009.", UCI,
                     "45 (x, y) coordinate pairs per movement; 15 classes x 24.",
                     {"header": None, "prefix": "c"}),
    **{f"robot_lp{k}": _robot_src(k) for k in range(1, 6)},
    "mfeat_fourier": _mfeat_src("fou", "mfeat-fou.txt"),
    "mfeat_fac": _mfeat_src("fac", "mfeat-factors.arff"),
    "mfeat_kar": _mfeat_src("kar", "mfeat-karhunen.arff"),
    "mfeat_pix": _mfeat_src("pix", "mfeat-pixel.arff"),
    "mfeat_zer": _mfeat_src("zer", "mfeat-zernike.arff"),
    "mfeat_mor": _mfeat_src("mor", "mfeat-morphological.arff"),
    "lung_cancer": Source("lung_cancer_uci", ("lung-cancer.arff",), "arff",
                          "datasets/openml-datasets", _OPENML_COMMIT,
                          "UCI Lung Cancer (OpenML 163)",
                          "Hong & Yang (1991). Optimal discriminant plane for a small number of "
                          "samples and design method of classifier on the plane. Pattern "
                          "Recognition 24(4), 317-324.", OPENML,
                          "The class is the first attribute of the source file; 56 nominal "
                          "attributes, 5 missing values.", {"target": "class"}),
    "arrhythmia": Source("arrhythmia", ("arrhythmia.arff",), "arff", "datasets/openml-datasets",
                         _OPENML_COMMIT, "UCI Arrhythmia (OpenML 5)",
                         "Guvenir, Acar, Demiroz & Cekin (1997). A supervised machine learning "
                         "algorithm for arrhythmia analysis. Computers in Cardiology, 433-436.",
                         OPENML, "13 of the 16 defined classes occur; 408 missing values."),
    "madelon": Source("madelon", ("madelon.mat",), "mat", "jundongl/scikit-feature",
                      "28e1f6a46fb2ad59d81269596b0d4c55b9335602",
                      "NIPS 2003 feature selection challenge / UCI Madelon",
                      "Guyon, Gunn, Ben-Hur & Dror (2004). Result analysis of the NIPS 2003 "
                      "feature selection challenge. NIPS 17.", "GPL-2 (scikit-feature); " + UCI,
                      "Training (2000) and validation (600) parts stacked; labels -1 / 1.",
                      {"prefix": "f"}),
    "golub_zscored": Source("golub_leukemia", ("ALLAML_scikit-feature.mat.gz",), "mat",
                            "jundongl/scikit-feature", "28e1f6a46fb2ad59d81269596b0d4c55b9335602",
                            "Golub et al. ALL/AML as distributed by scikit-feature (ALLAML.mat)",
                            "Golub et al. (1999). Science 286, 531-537; Li et al. (2017). "
                            "Feature selection: a data perspective. ACM Computing Surveys 50(6).",
                            "GPL-2 (scikit-feature)",
                            "Every gene z-scored (mean 0, SD 1). Not bundled (3.6 MB of "
                            "incompressible floats): read from data_home.",
                            {"labels": {1: "ALL", 2: "AML"}, "prefix": "g"}),
    # --- the NLC paper's UCI sets (Ruiz, Riquelme & Aguilar-Ruiz 2003, Tables 3-4) ---
    "glass": Source("weka_examples", ("glass.arff",), "arff",
                    origin="UCI Glass Identification (Weka example file)",
                    citation="German, B. (1987). Glass Identification, UCI Machine Learning "
                    "Repository.", group="nlc", **_WEKA),
    "ionosphere": Source("weka_examples", ("ionosphere.arff",), "arff",
                         origin="UCI Ionosphere (Weka example file)",
                         citation="Sigillito, Wing, Hutton & Baker (1989). Classification of "
                         "radar returns from the ionosphere using neural networks. Johns Hopkins "
                         "APL Technical Digest 10, 262-266.", group="nlc", **_WEKA),
    "iris": Source("weka_examples", ("iris.arff",), "arff",
                   origin="UCI Iris (Weka example file)",
                   citation="Fisher, R.A. (1936). The use of multiple measurements in taxonomic "
                   "problems. Annals of Eugenics 7, 179-188.", group="nlc", **_WEKA),
    "segment": Source("weka_examples", ("segment-challenge.arff", "segment-test.arff"), "arff",
                      origin="UCI Image Segmentation (Weka's challenge + test files, 2310 rows)",
                      citation="Brodley, C. Image Segmentation data, UCI Machine Learning "
                      "Repository (Vision Group, University of Massachusetts).",
                      notes="Weka's segment-challenge (1500) and segment-test (810) stacked.",
                      group="nlc", **_WEKA),
    "sonar": Source("uci_mlbench", ("sonar.csv.gz",), "mlbench",
                    origin="UCI Connectionist Bench (Sonar, Mines vs. Rocks), mlbench Sonar",
                    citation="Gorman & Sejnowski (1988). Analysis of hidden units in a layered "
                    "network trained to classify sonar targets. Neural Networks 1, 75-89.",
                    options={"target": "Class"}, group="nlc", **_MLBENCH),
    "vehicle": Source("uci_mlbench", ("vehicle.csv.gz",), "mlbench",
                      origin="UCI Statlog Vehicle Silhouettes, mlbench Vehicle",
                      citation="Siebert, J.P. (1987). Vehicle recognition using rule based "
                      "methods. Turing Institute Research Memorandum TIRM-87-018.",
                      options={"target": "Class"}, group="nlc", **_MLBENCH),
    "vowel": Source("uci_mlbench", ("vowel.csv.gz",), "mlbench",
                    origin="UCI Connectionist Bench (Vowel Recognition, Deterding), mlbench "
                    "Vowel", citation="Deterding, D. (1989). Speaker normalisation for "
                    "automatic speech recognition. PhD thesis, University of Cambridge.",
                    notes="V1 is nominal with 15 values of 66 rows each (the speaker, as "
                    "mlbench codes it); V2-V10 numeric. Weka's copy has 13 attributes.",
                    options={"target": "Class"}, group="nlc",
                    **_MLBENCH),
    "splice": Source("uci_mlbench", ("dna.csv.gz",), "mlbench",
                     origin="UCI Molecular Biology (Splice-junction Gene Sequences), StatLog "
                     "'dna' form (mlbench DNA)",
                     citation="Towell, Shavlik & Noordewier (1990). Refinement of approximate "
                     "domain theories by knowledge-based neural networks. AAAI-90; Michie, "
                     "Spiegelhalter & Taylor (1994). Machine Learning, Neural and Statistical "
                     "Classification (StatLog).",
                     notes="180 binary indicator attributes (nominal 0/1) encoding 60 "
                     "nucleotides; classes ei, ie, n.", options={"target": "Class"},
                     group="nlc", **_MLBENCH),
    "zoo": Source("uci_mlbench", ("zoo.csv.gz",), "mlbench", origin="UCI Zoo, mlbench Zoo",
                  citation="Forsyth, R. (1990). Zoo data set, UCI Machine Learning Repository.",
                  notes="15 boolean attributes (nominal FALSE/TRUE) and 'legs' (numeric); the "
                  "animal name is absent.", options={"target": "type"}, group="nlc",
                  **_MLBENCH),
    # --- regression sets (a numeric target; task "regression") ---
    "cpu": Source("weka_examples", ("cpu.arff",), "arff",
                  origin="UCI Computer Hardware, relative CPU performance (Weka example file)",
                  citation="Ein-Dor & Feldmesser (1987). Attributes of the performance of "
                  "central processing units: a relative performance prediction model. "
                  "Communications of the ACM 30(4), 308-317.",
                  notes="Weka's copy: the vendor and model name attributes deleted; the target "
                  "is the published relative performance PRP (integer valued, 116 distinct "
                  "values).", group="regression", task="regression", **_WEKA),
    "diabetes_lars": Source("datasets/data", ("diabetes_data_raw.csv.gz",
                                              "diabetes_target.csv.gz"), "sklearn_diabetes",
                            "scikit-learn/scikit-learn", "1.9.1",
                            "Diabetes progression of Efron et al. (2004), raw (unscaled) values "
                            "as shipped with scikit-learn",
                            "Efron, Hastie, Johnstone & Tibshirani (2004). Least angle "
                            "regression. Annals of Statistics 32(2), 407-499.",
                            "BSD-3-Clause (scikit-learn distribution)",
                            "The unscaled values (load_diabetes(scaled=False)); the target, a "
                            "disease-progression measure one year after baseline, is integer "
                            "valued (214 distinct values in 442 rows). Not the Pima diabetes "
                            "set ('diabetes' is an alias of 'pima').",
                            {"names": ("age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5",
                                       "s6")},
                            group="regression", task="regression", package="sklearn"),
}


def parse(name: str, home) -> pd.DataFrame:
    """Parse dataset ``name`` from the raw files under ``home`` (the shared datasets layout)."""
    src = SOURCES[name]
    return _PARSERS[src.parser](os.fspath(home), src)
