"""Executes the tutorial notebook (examples/tutorial.ipynb) with nbclient in a kernel of this
interpreter, and checks that every cell ran and that the outputs the tutorial promises
exist: the masked steps, the board pictures, the game of two agents, the tournament table
and its plot, and the training's before/after win rates. It fails (never skips) when the
notebook or its tools are missing: the `test` extra installs nbclient, nbformat, ipykernel
and matplotlib."""

import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[3] / "examples" / "tutorial.ipynb"


def _text(cell):
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            out.append(o["text"])
        elif "data" in o and "text/plain" in o["data"]:
            out.append(o["data"]["text/plain"])
    return "".join(out)


def _pngs(cell):
    return [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]


def test_tutorial_notebook_runs(tmp_path, monkeypatch):
    assert NOTEBOOK.is_file(), f"the tutorial notebook is missing: {NOTEBOOK}"
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # The last cell says which interpreter and which tessera the kernel used.
    nb.cells.append(
        nbformat.v4.new_code_cell(
            "import sys, tessera\nprint('KERNEL', sys.executable)\nprint('TESSERA', tessera.__file__)"
        )
    )
    monkeypatch.setenv("MPLBACKEND", "Agg")
    client = NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    t0 = time.perf_counter()
    client.execute()  # raises CellExecutionError on the first failing cell
    seconds = time.perf_counter() - t0
    code = [c for c in nb.cells if c.cell_type == "code"]
    for c in code:
        errors = [o for o in c.get("outputs", []) if o["output_type"] == "error"]
        assert not errors, f"cell failed: {c.source[:80]!r}: {errors}"
        assert c.get("execution_count"), f"cell did not run: {c.source[:80]!r}"
    texts = [_text(c) for c in code]
    everything = "\n".join(texts)

    # The kernel is this interpreter, with the tessera under test.
    kernel = re.search(r"KERNEL (\S+)", texts[-1]).group(1)
    assert os.path.realpath(kernel) == os.path.realpath(sys.executable), (kernel, sys.executable)
    import tessera

    assert re.search(r"TESSERA (\S+)", texts[-1]).group(1) == tessera.__file__

    # 1: six masked steps, each a legal id with its notation.
    steps = re.findall(r"player_[01]: +(\d+) legal ids, plays +(\d+) \((\S+)\)", everything)
    assert len(steps) == 6, everything
    # 2: the rgb_array picture (imshow) and the game handle's PNG repr.
    assert re.search(r"image \(\d+, \d+, 3\) uint8", everything)
    pictures = [c for c in code if _pngs(c)]
    assert len(pictures) >= 3, "expected the imshow figure, the handle's PNG and the bar chart"
    # 3: a finished game between two agents.
    assert re.search(r"\d+ moves, scores \[\d+, \d+\], winners \[[01](, 1)?\]", everything)
    # 4: the tournament table (three agents) and its bar chart.
    table = re.findall(
        r"^(\S+) +(\d+) +(\d+) +([01]\.\d\d) +\[([01]\.\d\d), ([01]\.\d\d)\]$",
        everything,
        re.M,
    )
    assert sorted(row[0] for row in table) == ["level:1", "level:4", "strong:nodes=300"], table
    for _, games, wins, rate, low, high in table:
        assert int(games) > 0 and 0 <= int(wins) <= int(games)
        assert float(low) <= float(rate) <= float(high)
    bar_cell = next(c for c in code if "ax.bar(" in c.source)
    assert _pngs(bar_cell), "the tournament plot produced no picture"
    # 5: the trained policy's win rates before and after, and a verdict computed from them.
    assert len(re.findall(r"win rate [01]\.\d\d -> [01]\.\d\d", everything)) == 2, everything
    base = re.findall(r"untrained, (sampled|greedy) .*win rate ([01]\.\d\d) \+- 0\.\d\d", everything)
    assert [k for k, _ in base] == ["sampled", "greedy"], everything
    verdict = re.search(
        r"verdict: the trained policy \((sampled|greedy), ([01]\.\d\d)\) is (above|not clearly above)"
        r" the uniform random player \(([01]\.\d\d)\) and (above|not clearly above) the"
        r" lowest-legal-id rule \(([01]\.\d\d)\)",
        everything,
    )
    assert verdict, everything
    # The verdict's baselines are the untrained rates printed before training.
    assert (verdict.group(4), verdict.group(6)) == (base[0][1], base[1][1])
    print(f"notebook executed in {seconds:.1f} s")
