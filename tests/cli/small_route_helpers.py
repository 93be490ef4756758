"""The oracle of the small-route tests of ``rankfusion rank`` (CSV and ARFF): the same command
run with the small route and with it turned off."""

from __future__ import annotations

from rankfusion.cli import main
from rankfusion.workflows import rank as rank_flow

NUMPY_CAST_WARNING = "rankfusion: warning: invalid value encountered in cast\n"


def both_routes(argv, capsys, monkeypatch):
    """(code, out, err) of the command with the small route, and with it turned off; and
    whether the small route printed the answer."""
    taken = []
    real = rank_flow._light_ranking

    def spy(*args):
        done = real(*args)
        taken.append(done is not None)
        return done

    monkeypatch.setattr(rank_flow, "_light_ranking", spy)
    code, out, err = main([str(a) for a in argv]), *capsys.readouterr()
    small = (code, out, err.replace(NUMPY_CAST_WARNING, ""))
    monkeypatch.setattr(rank_flow, "_light_ranking", lambda *args: None)
    code, out, err = main([str(a) for a in argv]), *capsys.readouterr()
    # numpy < 2 warns of a NaN cast inside pandas 1.5's reader (the general route's internals,
    # not the data); the small route has no such cast
    full = (code, out, err.replace(NUMPY_CAST_WARNING, ""))
    monkeypatch.setattr(rank_flow, "_light_ranking", real)
    return small, full, bool(taken and taken[0])
