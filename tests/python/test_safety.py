"""What outside testers found in the package, each pinned: files that a NUL
byte, a relative path or a lookalike name would have lost; arguments that
ctypes truncated or Python refused with the wrong error; law files read
without a size cap or without gzip; messages that named a temporary file or
the wrong row; and calls from several threads at once."""
import gzip
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import loopscale
from conftest import DENSE, ROOT, TRUTH, cli


@pytest.fixture(scope="module")
def dense_law():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return loopscale.fit(DENSE, law="dense").law


def quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


# ---- a NUL byte in a name ------------------------------------------------------------------

def test_a_nul_in_a_path_is_refused_not_cut(in_tmp, dense_law):
    shutil.copy(DENSE, "s.csv.gz")
    before = open("s.csv.gz", "rb").read()
    with pytest.raises(loopscale.UsageError) as e:
        dense_law.save("s.csv.gz\x00.json")
    assert e.value.code == 64 and "NUL" in str(e.value)
    with pytest.raises(loopscale.UsageError, match="NUL"):
        dense_law.save(b"s.csv.gz\x00.json")
    # Sweep("x.csv\0junk") read x.csv; now the library refuses the name.
    with pytest.raises(loopscale.UsageError, match="'s.csv.gz...': the file name holds a NUL byte"):
        quiet(loopscale.fit, loopscale.Sweep("s.csv.gz\x00junk"), law="dense")
    with pytest.raises(loopscale.UsageError, match="NUL"):
        quiet(loopscale.fit, "s.csv.gz\x00junk", law="dense")
    with pytest.raises(loopscale.UsageError, match=r"^output: the value holds a NUL byte"):
        quiet(loopscale.fit, "s.csv.gz", law="dense", output="s.csv.gz\x00.json")
    with pytest.raises(loopscale.UsageError, match="NUL"):
        loopscale.solve(flops=1e21, law="s.csv.gz\x00.json")
    with pytest.raises(loopscale.UsageError, match="NUL"):
        loopscale.read_law("law.json\x00x")
    assert open("s.csv.gz", "rb").read() == before


# ---- the law's own data, from wherever it was read ------------------------------------------------

def test_a_law_read_from_elsewhere_knows_its_data(in_tmp):
    """fit ran inside A/ and recorded its sweep as s.csv.gz; read from the
    parent, the law's data is A/s.csv.gz, which save must not replace."""
    os.mkdir("A")
    shutil.copy(DENSE, "A/s.csv.gz")
    before = open("A/s.csv.gz", "rb").read()
    cli("fit", "--law", "dense", "-o", "law.json", "s.csv.gz", cwd="A")
    assert json.load(open("A/law.json"))["fit"]["data"][0]["file"] == "s.csv.gz"
    law = loopscale.read_law("A/law.json")
    for name in ("A/s.csv.gz", "./A/../A/s.csv.gz", os.path.abspath("A/s.csv.gz")):
        with pytest.raises(loopscale.UsageError, match="would replace the input") as e:
            law.save(name)
        assert e.value.code == 64
    os.symlink("A/s.csv.gz", "link.csv.gz")
    os.link("A/s.csv.gz", "hard.csv.gz")
    for name in ("link.csv.gz", "hard.csv.gz"):
        with pytest.raises(loopscale.UsageError, match="would replace the input"):
            law.save(name)
    assert open("A/s.csv.gz", "rb").read() == before
    # And a law fitted here knows its data relative to here.
    fitted = quiet(loopscale.fit, "A/s.csv.gz", law="dense").law
    with pytest.raises(loopscale.UsageError, match="would replace the input"):
        fitted.save("hard.csv.gz")
    # Any file named in inputs= too.
    open("other.csv", "w").write("x\n")
    with pytest.raises(loopscale.UsageError, match="would replace the input"):
        fitted.save("./other.csv", inputs=["other.csv"])
    assert open("other.csv").read() == "x\n"


def test_a_law_given_to_a_command_is_guarded_as_its_file(in_tmp, dense_law):
    """A Law read from a file is read from that file by the command while the
    file is unchanged, so the command's guard protects it."""
    dense_law.save("law.json")
    law = loopscale.read_law("law.json")
    with pytest.raises(loopscale.UsageError, match="plot law.json would replace the input law law.json"):
        quiet(loopscale.solve, law=law, flops=1e21, plot="law.json")
    assert loopscale.read_law("law.json").params == law.params
    # Changed on disk since: the command uses the Law as it was read.
    loopscale.default_law().save("law.json")
    got = quiet(loopscale.solve, law=law, flops=1e21)
    assert got.json == quiet(loopscale.solve, law=dense_law, flops=1e21).json
    # A fit's law written with output= is that file's.
    fitted = quiet(loopscale.fit, DENSE, law="dense", output="fitted.json")
    with pytest.raises(loopscale.UsageError, match="plot fitted.json would replace the input law fitted.json"):
        quiet(loopscale.solve, law=fitted, flops=1e21, plot="fitted.json")


# ---- arguments: the library's checks, never ctypes' or Python's -------------------------------

@pytest.mark.parametrize("kwargs, message", [
    ({"threads": -1}, "threads: '-1' is outside [1, 256]"),
    ({"threads": 2 ** 40}, "threads: '1099511627776' is outside [1, 256]"),
    ({"threads": 2.5}, "threads: '2.5' is not an integer"),
    ({"threads": "many"}, "threads: 'many' is not a number"),
    ({"R": range(1, 20000)}, "R: '10001' is outside its range: an integer from 1 to 10000 (loops)"),
    ({"E": [1, 2, 2]}, "E: '2' given twice"),
    ({"mem": "3GB", "bits": True}, "bits: 'true' is not a number"),
    ({"flops": [1e21, "x"]}, "flops: '1e+21,x' is not a number"),
    ({"mem": float("nan")}, "mem: 'nan' is not a finite number"),
    ({"uncertainty": 1}, "uncertainty takes no value ('1' given)"),
    ({"frobnicate": 3}, "unknown option 'frobnicate'"),
])
def test_bad_arguments_are_the_librarys_usage_errors(kwargs, message):
    with pytest.raises(loopscale.UsageError) as e:
        loopscale.solve(**{"flops": 1e21, "uncertainty": True, **kwargs})
    assert str(e.value) == message
    assert e.value.code == e.value.exit_status == 64
    assert isinstance(e.value, ValueError)


def test_wrong_types_are_usage_errors(dense_law):
    with pytest.raises(loopscale.UsageError, match=r"^law: unknown law '5' \(BASE\[:MAPPING\]"):
        quiet(loopscale.fit, DENSE, law=5)
    with pytest.raises(loopscale.UsageError):
        loopscale.Sweep(5)
    with pytest.raises(loopscale.UsageError):
        loopscale.Law(None)
    with pytest.raises(loopscale.UsageError):
        loopscale.read_law(None)
    with pytest.raises(loopscale.UsageError):
        loopscale.read_law("bad\ud800name.json")
    with pytest.raises(loopscale.UsageError):
        dense_law.save(3.5)
    with pytest.raises(loopscale.UsageError, match="n_act"):
        dense_law.predict(n_act="many", tokens=1e10)
    with pytest.raises(loopscale.UsageError, match="loss_unit: 'stones' is not nats or bits"):
        loopscale.Sweep(DENSE, loss_unit="stones")
    with pytest.raises(loopscale.UsageError, match="unknown option 'wher'"):
        loopscale.Sweep(DENSE, wher="R<3")


def test_axes_as_a_list_is_the_same_holdout():
    a = quiet(loopscale.holdout, DENSE, laws=["dense:bounded"], axes=["R"])
    b = quiet(loopscale.holdout, DENSE, laws="dense:bounded", axes="R")
    assert a.json == b.json and a.text == b.text


def test_values_in_the_programs_syntax():
    r = quiet(loopscale.solve, flops=1e22, mem="3GB", bits=4, E=[1, 2, 4, 8, 16])
    assert r.json["mem_bytes"] == 3e9
    f = quiet(loopscale.frontier, flops="1e19:1e23:9")
    assert len(f.json["frontier"]) == 9
    assert quiet(loopscale.solve, flops="10T", format="json").json["flops"] == 1e13
    assert quiet(loopscale.solve, flops=np.float64(1e21), E=np.array([1, 2, 4])).json["flops"] == 1e21


# ---- law files: the library's reader and writer -----------------------------------------------------

def test_law_files_are_read_with_the_librarys_cap(tmp_path):
    with pytest.raises(loopscale.DataError) as e:
        loopscale.read_law("/dev/zero")
    assert str(e.value) == "/dev/zero: too large for a law file (more than 16 MiB)" and e.value.code == 65
    with pytest.raises(loopscale.NoInputError) as e:
        loopscale.read_law(str(tmp_path / "missing.json"))
    assert e.value.code == 66
    bad = tmp_path / "bad.json"
    bad.write_text("not json\n")
    with pytest.raises(loopscale.DataError, match=r"bad.json:1:1"):
        loopscale.read_law(str(bad))


def test_gzip_law_files_round_trip(in_tmp, dense_law):
    fitted = quiet(loopscale.fit, DENSE, law="dense", output="law.json.gz")
    assert open("law.json.gz", "rb").read(2) == b"\x1f\x8b"
    read = loopscale.read_law("law.json.gz")
    assert read.params == fitted.law.params and read.to_json() == fitted.law.to_json()
    dense_law.save("again.json.gz")
    assert open("again.json.gz", "rb").read(2) == b"\x1f\x8b"
    assert json.loads(gzip.decompress(open("again.json.gz", "rb").read())) == json.loads(dense_law.to_json())
    assert loopscale.read_law("again.json.gz").params == dense_law.params
    assert cli("solve", "--law", "again.json.gz", "--flops", "1e21", "--format", "json").json == \
        quiet(loopscale.solve, law=dense_law, flops=1e21).json


def test_save_errors_have_the_programs_status(in_tmp, dense_law):
    with pytest.raises(loopscale.UsageError) as e:
        dense_law.save("")
    assert e.value.code == 64  # the program refuses -o '' as a usage error
    assert cli("fit", "--law", "dense", "-o", "", DENSE, check=False).status == 64
    with pytest.raises(loopscale.CantCreateError) as e:
        dense_law.save("/nonexistent/x.json")
    assert e.value.code == 73 and str(e.value).startswith("/nonexistent/x.json")
    with pytest.raises(loopscale.CantCreateError, match="is a directory"):
        dense_law.save(".")


def test_save_keeps_permissions_and_gives_new_files_the_umask(in_tmp, dense_law):
    open("law.json", "w").write("old")
    os.chmod("law.json", 0o640)
    dense_law.save("law.json")
    assert stat.S_IMODE(os.stat("law.json").st_mode) == 0o640
    mask = os.umask(0o022)
    try:
        dense_law.save("new.json")
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat("new.json").st_mode) == 0o644
    assert sorted(os.listdir(".")) == ["law.json", "new.json"]


# ---- tables from memory ------------------------------------------------------------------------

def test_a_dataframe_error_names_its_row_even_across_line_breaks(in_tmp):
    pd = pytest.importorskip("pandas")
    runs = pd.DataFrame({"note": ["one\nline break", "two\n\nbreaks", "plain", "x"],
                         "n_act": [1e8, 2e8, 4e8, 8e8], "tokens": [2e9, 4e9, 8e9, 1.6e10],
                         "loss": [3.1, 2.9, -2.7, 2.5]}, index=["a", "b", "c", "d"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        with pytest.raises(loopscale.DataError) as e:
            quiet(loopscale.fit, loopscale.Sweep(runs), law="dense")
    message = str(e.value)
    assert message.startswith("<DataFrame> row 'c': column 'loss': ")
    assert "/dev/fd" not in message and "/tmp" not in message
    numbered = pd.DataFrame({"n_act": [1e8, 2e8], "tokens": [2e9, 4e9], "loss": [3.1, "2.9x"]}, index=[10, 20])
    with pytest.raises(loopscale.DataError, match=r"^<DataFrame> row 20: column 'loss': '2.9x' is not a number"):
        quiet(loopscale.fit, numbered, law="dense")
    with pytest.raises(loopscale.DataError, match=r"^<dict> row 1: "):
        quiet(loopscale.fit, {"n_act": [1e8, 2e8], "tokens": [2e9, 4e9], "loss": [3.1, 0]}, law="dense")
    assert "/dev/fd" not in repr(loopscale.Sweep(runs)) and "DataFrame: 4 rows" in repr(loopscale.Sweep(runs))


def test_a_dataframe_fits_as_its_file_and_is_recorded_as_a_table(in_tmp):
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv(DENSE, float_precision="round_trip").rename(columns={"n_act": "Model Size"})
    from_frame = quiet(loopscale.fit, loopscale.Sweep(frame, map={"n_act": "Model Size"}, where="R<=8"),
                       law="dense:bounded")
    from_file = quiet(loopscale.fit, loopscale.Sweep(DENSE, where="R<=8"), law="dense:bounded")
    assert from_frame.law.params == from_file.law.params
    assert from_frame.json["fit"]["data"][0]["file"] == "<DataFrame>"
    assert "/dev/fd" not in from_frame.text and "<DataFrame>" in from_frame.text


def test_one_file_named_twice_is_refused(in_tmp):
    shutil.copy(DENSE, "runs.csv.gz")
    os.symlink("runs.csv.gz", "link.csv.gz")
    for second in ("runs.csv.gz", "./runs.csv.gz", "link.csv.gz"):
        with pytest.raises(loopscale.UsageError, match="same file; each run would count twice"):
            quiet(loopscale.fit, "runs.csv.gz", second, law="dense")
        with pytest.raises(loopscale.UsageError, match="same file; each run would count twice"):
            quiet(loopscale.fit, loopscale.Sweep(["runs.csv.gz", second]), law="dense")


# ---- prediction ---------------------------------------------------------------------------

def test_predict_is_the_closed_form_dense_law():
    # Independent of the library: L = A N^-alpha + B D^-beta + c.
    law = loopscale.Law(json.dumps({"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"},
                                    "params": {"A": 482.01, "alpha": 0.3478, "B": 2085.43, "beta": 0.3658,
                                               "c": 1.8172}}))
    n = np.array([[1.1e8, 7.3e8, 2.385e9], [4.4e9, 1.3e10, 7.0e10]])
    d = np.array([2.1e10, 3.3e11, 1.4e12])
    got = law.predict(n_act=n, tokens=d)
    assert got.shape == (2, 3)
    np.testing.assert_allclose(got, 482.01 * n ** -0.3478 + 2085.43 * d ** -0.3658 + 1.8172, rtol=1e-13)
    assert isinstance(law.predict(n_act=7.3e8, tokens=3.3e11), float)


def test_predict_is_the_programs_predict(tmp_path):
    law = loopscale.default_law()
    got = law.predict(n_act=5.455e8, n_total=6e9, n_loop=4.091e8, R=np.arange(1, 9), E=16, tokens=1.746e12)
    for r, value in zip(range(1, 9), got):
        want = quiet(loopscale.predict, law=law, n_act=5.455e8, n_total=6e9, n_loop=4.091e8, R=r, E=16,
                     tokens=1.746e12).json["loss"]
        assert value == want
    assert np.all(np.diff(got) < 0)


def test_huge_arrays_predict_in_bounded_memory():
    law = loopscale.default_law()
    n = 3_000_000 + 17  # not a multiple of the chunk
    tokens = np.geomspace(1e10, 1e12, n)
    got = law.predict(n_act=3e8, tokens=tokens, E=8, n_total=1.9e9)
    assert got.shape == (n,)
    picks = [0, 65535, 65536, n // 2, n - 1]
    assert [got[i] for i in picks] == [law.predict(n_act=3e8, tokens=tokens[i], E=8, n_total=1.9e9) for i in picks]
    # A bad configuration far into the array is named by its own index.
    R = np.ones(n)
    R[2_000_001] = 2
    with pytest.raises(loopscale.DataError, match=r"^configuration 2000001: n_loop is needed when R > 1$"):
        law.predict(n_act=3e8, tokens=tokens, R=R)
    with pytest.raises(loopscale.DataError, match=r"^configuration 1: E 1 is less than k \(2\)$"):
        law.predict(n_act=1e9, tokens=1e10, k=[1, 2])


def test_a_law_that_is_not_a_fit_needs_force(in_tmp, dense_law):
    doc = json.loads(dense_law.to_json())
    doc["fit"]["converged"] = False
    open("bad.json", "w").write(json.dumps(doc))
    law = loopscale.read_law("bad.json")
    assert law.not_a_fit() == "the fit it records did not converge"
    message = "bad.json: the fit it records did not converge, so its parameters are not a law (force to use them " \
              "anyway)"
    with pytest.raises(loopscale.DataError) as e:
        loopscale.solve(law="bad.json", flops=1e21)
    assert str(e.value) == message
    with pytest.raises(loopscale.DataError) as e:
        loopscale.solve(law=law, flops=1e21)
    assert str(e.value) == message
    with pytest.raises(loopscale.DataError, match=r"^bad.json: .*\(force=True to use them anyway\)"):
        law.predict(n_act=1e9, tokens=2e10)
    with pytest.warns(loopscale.LawWarning, match="used anyway"):
        assert law.predict(n_act=1e9, tokens=2e10, force=True) == dense_law.predict(n_act=1e9, tokens=2e10)
    with pytest.warns(loopscale.LawWarning, match=r"^bad.json: the fit it records did not converge; used anyway"):
        loopscale.solve(law=law, flops=1e21, force=True)


# ---- threads, and the host process --------------------------------------------------------------

def test_commands_run_from_several_threads_at_once():
    jobs = [("solve", (), {"flops": f, "mem": "3GB", "bits": 4}) for f in (1e20, 1e21, 1e22, 1e23)]
    jobs += [("fit", (DENSE,), {"law": "dense:bounded", "threads": 1})] * 2
    jobs += [("predict", (DENSE,), {"law": TRUTH})] * 2
    serial = [quiet(getattr(loopscale, c), *a, **k).json for c, a, k in jobs]
    results = [None] * len(jobs)

    def work(i):
        c, a, k = jobs[i]
        results[i] = getattr(loopscale, c)(*a, **k).json

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    with warnings.catch_warnings():  # the filters are the process's: set once, around the threads
        warnings.simplefilter("ignore")
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for got, want in zip(results, serial):
        if "created_by" in want:
            got, want = dict(got, created_by=None), dict(want, created_by=None)
        assert got == want


SEVEN = os.path.join(ROOT, "tests", "data", "seven-runs-two-tokens.csv")


def test_a_degenerate_sweep_does_not_abort_the_host():
    """Seven runs, two token counts: GSL's own handler would abort the
    process; run in a child so that an abort fails this test."""
    code = ("import loopscale, sys, warnings\nwarnings.simplefilter('ignore')\n"
            "try:\n    loopscale.fit(sys.argv[1], law='dense')\n"
            "except loopscale.LoopscaleError as e:\n    print('fit', type(e).__name__)\n"
            "r = loopscale.holdout(sys.argv[1], laws='dense', axes='N,D')\n"
            "print('holdout', len(r.json['laws'][0]['heldout']))\n")
    out = subprocess.run([sys.executable, "-c", code, SEVEN], capture_output=True, text=True)
    assert "Default GSL error handler" not in out.stderr
    assert out.returncode == 0, out.stderr
    assert "holdout " in out.stdout


def test_a_fit_that_is_not_a_law_raises_with_what_was_printed(in_tmp):
    with open("one-size.csv", "w") as f:
        f.write("n_act,tokens,loss\n" + "".join("4e8,%g,%g\n" % (d, 2.2 + 30 / d ** 0.15) for d in
                                                (1e9, 2e9, 4e9, 8e9, 1.6e10, 3.2e10, 6.4e10, 1.28e11)))
    want = cli("fit", "--law", "dense", "one-size.csv", check=False)
    with pytest.raises(loopscale.NotConvergedError) as e:
        quiet(loopscale.fit, "one-size.csv", law="dense")
    assert e.value.code == want.status == 3
    assert str(e.value) == want.messages("fit")[-1].replace("--fix", "fix")
    assert e.value.result.text == want.stdout


def test_a_warning_made_an_error_writes_no_file(in_tmp):
    """A script that turns a warning into an error stops the command before
    its files are written: the warnings are raised before the commit."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", loopscale.LoopscaleWarning)
        with pytest.raises(loopscale.LoopscaleWarning):
            loopscale.solve(law=TRUTH, flops="1e27", plot="s.svg")
    assert not os.path.exists("s.svg")
    assert not [f for f in os.listdir(".") if ".tmp." in f]
    # Without the filter the same call writes it.
    quiet(loopscale.solve, law=TRUTH, flops="1e27", plot="s.svg")
    assert os.path.getsize("s.svg") > 0


def test_a_law_fitted_here_guards_its_data_after_a_chdir(in_tmp):
    """A law fitted in A/ (one law, or a group's of by=) knows its sweep as
    A/s.csv.gz after the process moves elsewhere: save refuses it under any
    name."""
    os.mkdir("A")
    os.mkdir("B")
    shutil.copy(DENSE, "A/s.csv.gz")
    before = open("A/s.csv.gz", "rb").read()
    os.chdir("A")
    laws = [quiet(loopscale.fit, "s.csv.gz", law="dense").law, quiet(loopscale.fit, "s.csv.gz", law="dense", by="R").laws[0]]
    os.chdir("../B")
    for law in laws:
        for name in ("../A/s.csv.gz", os.path.abspath("../A/s.csv.gz")):
            with pytest.raises(loopscale.UsageError, match="would replace the input"):
                law.save(name)
    os.chdir("..")
    assert open("A/s.csv.gz", "rb").read() == before


def test_a_dataframe_cell_that_starts_with_a_hash_keeps_its_row(in_tmp):
    """A text cell '#7' (or a column named '#id') is quoted for the library, not
    read as a comment that drops the row; a carriage return in a cell too."""
    import pandas as pd
    d = pd.read_csv(DENSE)
    d.insert(0, "name", ["run%d" % i for i in range(len(d))])
    d.loc[[3, 7], "name"] = ["#3 rerun", "#N/A"]
    d.loc[5, "name"] = "a\rb"
    assert quiet(loopscale.fit, loopscale.Sweep(d), law="dense").law.fit["n"] == len(d)
    assert quiet(loopscale.fit, loopscale.Sweep(d.rename(columns={"name": "#id"})), law="dense").law.fit["n"] == len(d)


@pytest.mark.parametrize("output", [False, True, 0, float("nan"), ["x.json", "y.json"], {"a": 1}])
def test_an_output_that_is_not_a_path_is_refused(in_tmp, output):
    with pytest.raises(loopscale.UsageError, match=r"^output: give a path"):
        quiet(loopscale.fit, DENSE, law="dense", output=output)
    assert os.listdir(".") == []


def test_an_operand_that_is_not_a_sweep_is_refused(in_tmp):
    open("None", "w").write("n_act,tokens,loss\n1e8,1e10,3\n")
    with pytest.raises(loopscale.UsageError, match="not NoneType None"):
        loopscale.fit(None, law="dense")
