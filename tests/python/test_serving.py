"""The serving options from Python: keyword arguments made from the option
table, answers equal to the program's, and the quantisation penalty's fit
checked against numpy's least squares."""
import json
import math
import os
import warnings

import numpy as np

import loopscale
from conftest import ROOT, cli

QUANTISED = os.path.join(ROOT, "tests", "data", "quantised-sweep.csv")


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def test_every_command_that_solves_takes_the_serving_options():
    for command in ("solve", "frontier", "plan", "report"):
        keywords = loopscale._commands.OPTIONS[command]
        for name in ("context", "batch", "kv_bits", "activation_memory", "quantisation"):
            assert name in keywords, (command, name)
        # plan's decision compares losses, not lifetime cost.
        assert ("inference_tokens" in keywords) == (command != "plan"), command
    assert "target_loss" in loopscale._commands.OPTIONS["solve"]
    assert "bits_column" in loopscale._commands.OPTIONS["fit"]


def test_the_kv_cache_is_counted_as_the_program_counts_it():
    got = quiet(loopscale.solve, flops=1e22, mem="3GB", bits=4, E=[1, 4, 16], context=8192, batch=8)
    want = cli("solve", "--flops", "1e22", "--mem", "3GB", "--bits", "4", "--E", "1,4,16", "--context", "8192",
               "--batch", "8", "--format", "json")
    assert got.json == want.json
    chosen = got.json["chosen"]
    assert chosen["memory_bytes"] == chosen["weight_bytes"] + chosen["kv_bytes"]
    assert chosen["memory_bytes"] <= 3e9
    # The default template's fallback: K and V as wide as the model in all
    # 2 + 12 R + 2 layers, d = sqrt(N_act / 3 / (4 x 16)), 4-bit elements.
    d = math.sqrt(chosen["n_act"] / 3 / 64)
    hand = 8192 * 8 * 2 * d * (2 + 12 * chosen["R"] + 2) * 4 / 8
    assert abs(chosen["kv_bytes"] - hand) < 1e-9 * hand


def test_a_target_loss_alone_buys_the_cheapest_training():
    got = quiet(loopscale.solve, target_loss=2.15, mem="3GB", bits=4, E=[1, 4, 16], R=[1, 2, 4])
    want = cli("solve", "--target-loss", "2.15", "--mem", "3GB", "--bits", "4", "--E", "1,4,16", "--R", "1,2,4",
               "--format", "json")
    assert got.json == want.json
    assert "flops" not in got.json and got.json["target_loss"] == 2.15
    assert abs(got.json["chosen"]["loss"] - 2.15) < 1e-9
    assert got.json["chosen"]["total_flops"] == got.json["chosen"]["training_flops"]


def test_the_penalty_fit_is_numpys_least_squares(tmp_path):
    law = quiet(loopscale.fit, QUANTISED, law="dense", bits_column="bits")
    q = law.json["quantisation"]
    # Independently: pair each quantised run with its 16-bit run and solve
    # ln delta = ln C_T + gamma_D ln D - gamma_N ln N - P / gamma_post.
    with open(QUANTISED) as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = [dict(zip(lines[0].strip().split(","), map(float, line.split(",")))) for line in lines[1:]]
    full = {(r["n_act"], r["tokens"]): r["loss"] for r in rows if r["bits"] >= 16}
    low = [r for r in rows if r["bits"] < 16]
    delta = np.array([r["loss"] - full[(r["n_act"], r["tokens"])] for r in low])
    keep = delta > 0
    X = np.array([[1.0, math.log(r["tokens"]), -math.log(r["n_act"]), -r["bits"]] for r in low])[keep]
    beta, *_ = np.linalg.lstsq(X, np.log(delta[keep]), rcond=None)
    assert q["runs"] == int(keep.sum())
    assert math.isclose(q["C_T"], math.exp(beta[0]), rel_tol=1e-9)
    assert math.isclose(q["gamma_D"], beta[1], rel_tol=1e-9)
    assert math.isclose(q["gamma_N"], beta[2], rel_tol=1e-9)
    assert math.isclose(q["gamma_post"], 1 / beta[3], rel_tol=1e-9)
    # The program writes the same law file.
    cli("fit", QUANTISED, "--law", "dense", "--bits-column", "bits", "-o", tmp_path / "q.json")
    assert json.loads((tmp_path / "q.json").read_text())["quantisation"] == q


def test_solve_adds_the_penalty_of_the_law_it_is_given(tmp_path):
    path = tmp_path / "q.json"
    cli("fit", QUANTISED, "--law", "dense", "--bits-column", "bits", "-o", path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = loopscale.solve(law=str(path), flops=1e20, mem="400MB", bits=4, R=1, E=1)
    assert not [w for w in caught if w.category is loopscale.ServingWarning]
    assert any("penalty of quantising" in n for n in got.notes)
    q = json.loads(path.read_text())["quantisation"]
    c = got.json["chosen"]
    penalty = q["C_T"] * c["tokens"] ** q["gamma_D"] / c["n_total"] ** q["gamma_N"] * math.exp(-4 / q["gamma_post"])
    assert math.isclose(c["quant_penalty"], penalty, rel_tol=1e-12)
    # Without a penalty, --bits below 16 is a serving warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loopscale.solve(flops=1e20, mem="400MB", bits=4, R=1, E=1)
    assert [w for w in caught if w.category is loopscale.ServingWarning]
