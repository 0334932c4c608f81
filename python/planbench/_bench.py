"""planbench.benchmark(): a benchmark script's runs as dicts (or a pandas DataFrame)."""
import csv
import os
import tempfile

from . import _planbench


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def run(script, jobs=1, runs=0, time_limit=0.0, out_dir=None, dataframe=True):
    with tempfile.TemporaryDirectory(prefix="planbench-bench-") as tmp:
        csv_path = os.path.join(tmp, "runs.csv")
        _planbench._bench(os.fspath(script), csv_path, out_dir or tmp, int(jobs), int(runs), float(time_limit))
        with open(csv_path, newline="") as f:
            rows = [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]
    if dataframe:
        try:
            import pandas
        except ImportError:
            return rows
        return pandas.DataFrame(rows)
    return rows
