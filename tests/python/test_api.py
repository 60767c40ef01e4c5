"""The package's face: one function per command of the library, made from
its option table; warning categories per code; notes to logging; result
objects; Laws and Sweeps."""
import html
import inspect
import json
import logging
import os
import re
import warnings

import numpy as np
import pytest

import loopscale
from conftest import DENSE, MOE, ROOT, SHARED, TRUTH, cli


def quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def test_names_and_version():
    assert loopscale.__version__ == loopscale.version() == cli("--version").stdout.split()[1]
    with open(os.path.join(ROOT, "python", "pyproject.toml")) as f:
        assert 'version = "%s"' % loopscale.__version__ in f.read()
    assert dir(loopscale) == sorted(loopscale.__all__ + ["__version__"])
    assert not [n for n in loopscale.__all__ if n.startswith("_") or not hasattr(loopscale, n)]


def library_commands():
    from loopscale import _lib
    return [_lib.lib.ls_command_name(i).decode() for i in range(_lib.lib.ls_command_count())]


def test_every_command_is_a_function_with_the_tables_options():
    commands = library_commands()
    assert set(commands) == {"fit", "holdout", "isofit", "frontier", "isoflop", "plan", "simulate", "predict", "solve",
                             "report", "shape", "route", "exit"}
    for name in commands:
        f = getattr(loopscale, name)
        assert name in loopscale.__all__
        help_text = cli(name, "--help").stdout
        flags = re.findall(r"^(?:  -\w, |      )--([\w-]+)", help_text, re.M)
        params = inspect.signature(f).parameters
        keywords = [p for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
        assert [p.name for p in keywords] == [flag.replace("-", "_") for flag in flags if flag != "help"]
        # The description of `loopscale NAME --help` opens the docstring.
        description = help_text.split("\n\n")[1].split("\n")[0]
        assert description in f.__doc__
    sig = inspect.signature(loopscale.fit).parameters
    assert sig["law"].default == "moe:bounded-sparse" and sig["starts"].default == 32
    assert sig["bootstrap_starts"].default == 2 and sig["last"].default is False
    assert repr(inspect.signature(loopscale.solve).parameters["eps"].default) == "<the law's fit RMSE, 0 if none>"
    reader = list(inspect.signature(loopscale.Sweep).parameters)[1:]
    assert reader == ["profile", "map", "where", "skip_invalid", "loss_unit", "bytes_per_token", "group_tol", "run",
                      "step", "last"]


def test_a_warning_category_per_code():
    from loopscale import _lib, _warnings
    names = []
    while _lib.lib.ls_warning_code_name(len(names)):
        names.append(_lib.warning_code_name(len(names)))
    assert len(names) == 12
    classes = {c.code: c for c in vars(loopscale).values()
               if isinstance(c, type) and issubclass(c, loopscale.LoopscaleWarning) and c.code}
    assert sorted(classes) == sorted(names)
    for code, c in classes.items():
        assert issubclass(c, UserWarning) and c.__name__ in loopscale.__all__
        assert type(_warnings.make(code, "s", "m")) is c
    future = _warnings.make("a-code-from-a-newer-library", "", "m")
    assert type(future) is loopscale.LoopscaleWarning and future.code == "a-code-from-a-newer-library"


def test_notes_go_to_logging_not_warnings(caplog):
    with caplog.at_level(logging.INFO, logger="loopscale"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = loopscale.solve(flops=1e21, E=[1, 2])
    note = "using the default law (moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz); law FILE " \
           "for another"
    assert r.notes[0] == note
    assert [rec.getMessage() for rec in caplog.records if rec.name == "loopscale"][0] == "solve: " + note
    assert note not in [str(w.message) for w in caught]
    assert cli("solve", "--flops", "1e21", "--E", "1,2").messages("solve")[0] == note.replace("law FILE",
                                                                                              "--law FILE")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="loopscale"):
        assert quiet(loopscale.solve, flops=1e21, E=[1, 2], quiet=True).notes[0] == note
    assert not caplog.records


def test_results_show_their_table():
    r = quiet(loopscale.holdout, DENSE, laws=["dense:linear", "dense:bounded"], axes="R,N")
    assert repr(r) == r.text.rstrip("\n")
    assert r._repr_html_() == "<pre>%s</pre>" % html.escape(repr(r))
    frame = r.to_frame()
    assert list(frame.columns) == ["law", "axis", "test", "train_runs", "test_runs", "rmse", "converged"]
    bounded = r.json["laws"][1]
    assert frame[(frame.law == "dense:bounded") & (frame.axis == "R")].rmse.item() == bounded["heldout"][0]["rmse"]
    with pytest.raises(TypeError):
        quiet(loopscale.fit, DENSE, law="dense").to_frame()


@pytest.fixture(scope="module")
def law_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("law") / "law.json"
    cli("fit", "-o", path, MOE)
    return str(path)


def test_tables_become_frames(law_file, tmp_path):
    pytest.importorskip("pandas")
    f = quiet(loopscale.frontier, law=law_file, flops="1e20:1e22:3").to_frame()
    assert list(f.flops) == [1e20, 1e21, 1e22] and "n_opt" in f
    iso = quiet(loopscale.isoflop, law=law_file, flops=[1e20, 1e21], E=[1, 8])
    frame = iso.to_frame()
    assert len(frame) == 4 and frame.n_act.tolist() == [p["minimum"]["n_act"] for p in iso.json["profiles"]]
    p = quiet(loopscale.predict, DENSE, law=law_file)
    rows = p.to_frame()
    assert len(rows) == 140 and np.sqrt(np.mean(rows.residual ** 2)) == pytest.approx(p.json["rmse"], rel=1e-12)
    assert repr(p).startswith(repr(rows)[:20])
    one = quiet(loopscale.predict, law=law_file, n_act=1e9, tokens=2e11).to_frame()
    assert len(one) == 1 and one.loss.item() == loopscale.read_law(law_file).predict(n_act=1e9, tokens=2e11)
    s = quiet(loopscale.solve, flops=1e21, E=[1, 2], R=[1, 2], table=True)
    assert len(s.to_frame()) == 4 and set(s.to_frame().E) == {1, 2}
    sim = quiet(loopscale.simulate, law=TRUTH, n_act=[1e8, 3e8], tokens=[1e10, 2e10]).to_frame()
    assert len(sim) == 4 and "loss" in sim
    (tmp_path / "three.csv").write_text("token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n0,3,0.5,1\n1,1,0.25,1.5\n"
                                        "1,2,3,4\n1,3,0.125,0.5\n2,1,4,2\n2,2,4,2\n2,3,4,2\n")
    e = quiet(loopscale.exit, str(tmp_path / "three.csv")).to_frame()
    assert list(e.columns)[:2] == ["threshold", "saved"]
    (tmp_path / "hand.csv").write_text("token,loop,layer,z0,z1,z2,z3\n0,1,1,2,0,1,-1\n0,2,1,0,3,0.5,0\n"
                                       "1,1,1,0,0,5,1\n1,2,1,0,0,5,2\n")
    r = quiet(loopscale.route, str(tmp_path / "hand.csv"), top_k=1, per_loop=True).to_frame()
    assert r.loop.tolist() == [1, 2, "all"] and r.b2.tolist()[2] == pytest.approx(2 / 3, rel=1e-15)


def test_sweep_options_are_set_on_the_request():
    a = quiet(loopscale.fit, loopscale.Sweep(DENSE, where=["R<=8", "E<2"], loss_unit="nats"), law="dense:bounded")
    b = quiet(loopscale.fit, DENSE, law="dense:bounded", where=("R<=8", "E<2"), loss_unit="nats")
    assert a.law.params == b.law.params and a.json["fit"]["filters"] == b.json["fit"]["filters"]
    with pytest.raises(loopscale.UsageError, match="one set of reader options"):
        quiet(loopscale.fit, loopscale.Sweep(DENSE, where="R<=8"), loopscale.Sweep(MOE, where="R<=4"))


def test_a_fit_result_gives_its_law(tmp_path):
    r = quiet(loopscale.fit, DENSE, law="dense:bounded", bootstrap=20, seed=7)
    law = r.law
    assert law.kind == "dense:bounded" and law.params == r.json["params"]
    assert law.ci_level == 0.95 and set(law.ci) <= set(law.params)
    assert law.draws.shape == (20, len(law.draw_names))
    assert law.rmse == r.json["fit"]["rmse"]
    assert loopscale.Law(law.to_json()).params == law.params
    # Used as a law by another command, it is that law.
    assert quiet(loopscale.solve, law=r, flops=1e21).json == quiet(loopscale.solve, law=law, flops=1e21).json
    by = quiet(loopscale.fit, MOE, law="dense:bounded", by="E", where="E<=2")
    assert len(by.laws) == 2
    with pytest.raises(ValueError, match="2 laws"):
        by.law


EPOCH = os.path.join(SHARED, "data", "external", "epoch-chinchilla", "svg_extracted_data.csv")


@pytest.mark.skipif(not os.path.exists(EPOCH), reason="Epoch's data (../shared) is absent")
def test_epoch_points_fit_as_the_program_and_as_published():
    sweep = loopscale.Sweep(EPOCH, map={"n_act": "Model Size", "flops": "Training FLOP"}, where="loss<3.4469")
    got = quiet(loopscale.fit, sweep, law="dense")
    want = cli("fit", "--law", "dense", "--map", "n_act=Model Size", "--map", "flops=Training FLOP", "--where",
               "loss<3.4469", "--format", "json", EPOCH).json
    assert got.json["params"] == want["params"] and got.json["fit"]["n"] == 240
    # Epoch AI's published optimum (Besiroglu et al., "Chinchilla Scaling: A
    # replication attempt", 2024): A 482.01, alpha 0.3478, B 2085.43,
    # beta 0.3658, c 1.8172.
    p = got.law.params
    assert p["alpha"] == pytest.approx(0.3478, rel=5e-3) and p["beta"] == pytest.approx(0.3658, rel=5e-3)
    assert p["c"] == pytest.approx(1.8172, rel=1e-3) and p["A"] == pytest.approx(482.01, rel=1e-2)
    assert p["B"] == pytest.approx(2085.43, rel=3e-2)


def test_a_template_given_as_a_dict_is_read_as_its_json():
    """template= (and any JSON input) may be a dict: the same answer as its file,
    and errors name it "<dict>", not a file made of its repr."""
    path = os.path.join(ROOT, "data", "templates", "huginn.json")
    with open(path) as f:
        document = json.load(f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from_dict = loopscale.solve(flops=1e22, mem="3GB", bits=4, template=document)
        from_file = loopscale.solve(flops=1e22, mem="3GB", bits=4, template=path)
    assert from_dict.json["chosen"] == from_file.json["chosen"]
    with pytest.raises(loopscale.DataError, match=r"^<dict>:1:2: top_k"):
        loopscale.solve(flops=1e22, template={"top_k": "x"})


def test_a_number_where_a_file_is_read_is_a_usage_error():
    with pytest.raises(loopscale.UsageError, match=r"^quantisation: give a file .*not int 123"):
        loopscale.solve(flops=1e22, mem="3GB", bits=4, quantisation=123)
