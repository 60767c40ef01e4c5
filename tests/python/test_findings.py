"""What outside testers found in the package: saving over data, GSL's
default error handler on degenerate fits, undetermined fits, bad arguments,
messages.  Run by ctest (test `python`) with GSL's handler at its default."""
import gzip
import json
import math
import os
import shutil
import stat

import pytest

import loopscale

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DENSE = os.path.join(ROOT, "data", "sweeps", "looped-dense.csv.gz")


@pytest.fixture(scope="module")
def dense_law():
    return loopscale.fit(DENSE, "dense")


def test_save_refuses_its_own_data_under_any_name(tmp_path, dense_law):
    data = tmp_path / "mine.csv.gz"
    shutil.copy(DENSE, data)
    before = data.read_bytes()
    law = loopscale.fit(str(data), "dense")
    os.symlink(data, tmp_path / "link.csv.gz")
    os.link(data, tmp_path / "hard.csv.gz")
    for name in (str(data), str(tmp_path / "link.csv.gz"), str(tmp_path / "hard.csv.gz"),
                 str(tmp_path / "." / "mine.csv.gz")):
        with pytest.raises(loopscale.UsageError, match="would replace the input"):
            law.save(name)
    assert data.read_bytes() == before
    # Any input the caller names is refused as well.
    other = tmp_path / "other.csv"
    other.write_text("x\n")
    with pytest.raises(loopscale.UsageError, match="would replace the input"):
        dense_law.save(str(other), inputs=[str(other)])
    assert other.read_text() == "x\n"
    # A law read back from its file knows its data by the path it records.
    copy = tmp_path / "copy.json"
    law.save(str(copy))
    with pytest.raises(loopscale.UsageError, match="would replace the input"):
        loopscale.read_law(str(copy)).save(str(data))


def test_save_keeps_permissions_and_gives_new_files_the_umask(tmp_path, dense_law):
    old = tmp_path / "law.json"
    old.write_text("old")
    os.chmod(old, 0o640)
    dense_law.save(str(old))
    assert stat.S_IMODE(os.stat(old).st_mode) == 0o640
    assert loopscale.read_law(str(old)).params == dense_law.params
    mask = os.umask(0o022)
    try:
        dense_law.save(str(tmp_path / "new.json"))
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.json").st_mode) == 0o644
    assert not [n for n in os.listdir(tmp_path) if "tmp" in n or n.startswith(".loopscale")]


@pytest.mark.parametrize("target", ["/nonexistent/x.json", "DIR", ""])
def test_save_that_cannot_create_is_cant_create_naming_the_target(tmp_path, dense_law, target):
    if target == "DIR":
        target = str(tmp_path)
    with pytest.raises(loopscale.CantCreateError) as e:
        dense_law.save(target)
    assert e.value.exit_status == 73
    assert str(e.value).startswith(repr(target) if target == "" else target)
    assert ".loopscale-" not in str(e.value) and ".tmp." not in str(e.value)


SEVEN = os.path.join(ROOT, "tests", "data", "seven-runs-two-tokens.csv")


def test_degenerate_sweep_does_not_abort_the_host():
    """Seven runs, two token counts: GSL's own Cholesky solver used to call
    GSL's default handler (abort) from inside the library.  Run in a child
    so that an abort fails this test instead of killing pytest."""
    import subprocess
    import sys
    code = ("import loopscale, sys\n"
            "try:\n"
            "    loopscale.fit(sys.argv[1], 'dense')\n"
            "except loopscale.LoopscaleError as e:\n"
            "    print('fit', type(e).__name__)\n"
            "r = loopscale.holdout(sys.argv[1], ['dense'], axes='N,D')\n"
            "print('holdout', len(r['laws'][0]['heldout']))\n")
    out = subprocess.run([sys.executable, "-c", code, SEVEN], capture_output=True, text=True)
    assert "Default GSL error handler" not in out.stderr
    assert out.returncode == 0, out.stderr
    assert "holdout " in out.stdout


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


ONE_SIZE = "n_act,tokens,loss\n" + "".join("4e8,%g,%g\n" % (d, 2.2 + 30 / d ** 0.15) for d in
                                           (1e9, 2e9, 4e9, 8e9, 1.6e10, 3.2e10, 6.4e10, 1.28e11))


def test_undetermined_fit_raises_not_converged_like_the_program(tmp_path):
    import subprocess
    path = write(tmp_path / "one-size.csv", ONE_SIZE)
    with pytest.raises(loopscale.NotConvergedError) as e:
        loopscale.fit(path, "dense")
    assert e.value.exit_status == 3
    assert "every run has n_act = 4e+08" in str(e.value)
    bin_ = os.environ.get("LOOPSCALE_BIN", os.path.join(ROOT, "build", "loopscale"))
    out = subprocess.run([bin_, "fit", "--law", "dense", path], capture_output=True, text=True)
    assert out.returncode == 3 and "every run has n_act = 4e+08" in out.stderr


def test_law_that_is_not_a_fit_needs_force(tmp_path, dense_law):
    doc = json.loads(dense_law.to_json())
    doc["fit"]["converged"] = False
    path = write(tmp_path / "bad.json", json.dumps(doc))
    law = loopscale.read_law(path)
    assert law.not_a_fit() == "the fit it records did not converge"
    with pytest.raises(loopscale.DataError, match=r"bad\.json: the fit it records did not converge, so its"):
        law.predict(n_act=1e9, tokens=2e10)
    with pytest.raises(loopscale.DataError, match="force=True"):
        loopscale.solve(path, flops=1e21)
    with pytest.warns(UserWarning, match="used anyway"):
        value = law.predict(n_act=1e9, tokens=2e10, force=True)
    assert value == dense_law.predict(n_act=1e9, tokens=2e10)
    with pytest.warns(UserWarning, match="used anyway"):
        loopscale.solve(law, flops=1e21, force=True)
    doc = json.loads(dense_law.to_json())
    del doc["stderr"]["alpha"]
    law = loopscale.Law(json.dumps(doc))
    assert "no standard error for alpha" in law.not_a_fit()


def test_same_file_twice_is_refused(tmp_path):
    path = write(tmp_path / "runs.csv", ONE_SIZE)
    os.symlink(path, tmp_path / "link.csv")
    for second in (path, str(tmp_path / "." / "runs.csv"), str(tmp_path / "link.csv")):
        with pytest.raises(loopscale.UsageError, match="same file; each run would count twice"):
            loopscale.Sweep([path, second])


def test_held_parameters_warn_as_the_program_does(tmp_path):
    import subprocess
    bin_ = os.environ.get("LOOPSCALE_BIN", os.path.join(ROOT, "build", "loopscale"))
    out = subprocess.run([bin_, "fit", DENSE], capture_output=True, text=True)
    expected = [l.split("warning: ", 1)[1] for l in out.stderr.splitlines() if "warning: " in l]
    assert expected
    with pytest.warns(UserWarning) as record:
        loopscale.fit(DENSE)
    assert [str(w.message) for w in record] == expected


@pytest.mark.parametrize("kwargs, message", [
    ({"fix": {"alpha": math.nan}}, "fix: 'nan' is not a finite number"),
    ({"fix": {"alpha": math.inf}}, "fix: 'inf' is not a finite number"),
    ({"fix": {"alpha": "x"}}, "fix: 'x' is not a number"),
    ({"huber_delta": math.nan}, "huber_delta: 'nan' is not a finite number"),
    ({"huber_delta": 0}, "huber_delta: '0.0' must be positive"),
    ({"level": math.nan}, "level: 'nan' is not a finite number"),
    ({"level": 1}, "level: '1.0' must be between 0 and 1"),
    ({"bootstrap": -1}, "bootstrap: '-1' is outside [0, 10000000]"),
    ({"bootstrap": 2.5}, "bootstrap: '2.5' is not an integer"),
    ({"starts": -1}, "starts: '-1' is outside [1, 1000000]"),
    ({"starts": 0}, "starts: '0' is outside [1, 1000000]"),
    ({"bootstrap_starts": 101}, "bootstrap_starts: '101' is outside [0, 100]"),
    ({"seed": -1}, "seed: '-1' is outside [0, 4294967295]"),
    ({"threads": 1000}, "threads: '1000' is outside [0, 256]"),
    ({"loss": 3}, "loss: '3' is not a string"),
])
def test_bad_fit_arguments_are_usage_errors(kwargs, message):
    with pytest.raises(loopscale.UsageError) as e:
        loopscale.fit(DENSE, "dense", **kwargs)
    assert str(e.value) == message
    assert e.value.exit_status == 64


def test_law_file_errors_name_the_file_and_use_the_documented_classes(tmp_path):
    bad = write(tmp_path / "badlaw.json", "not json\n")
    with pytest.raises(loopscale.DataError) as e:
        loopscale.read_law(bad)
    assert str(e.value).startswith(bad + ":1:1:")
    with pytest.raises(loopscale.DataError, match="badlaw.json"):
        loopscale.solve(bad, flops=1e21)
    with pytest.raises(loopscale.NoInputError) as e:
        loopscale.read_law(str(tmp_path))
    assert e.value.exit_status == 66 and str(tmp_path) in str(e.value)
    with pytest.raises(loopscale.NoInputError):
        loopscale.read_law(str(tmp_path / "missing.json"))
    binary = tmp_path / "law.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(loopscale.DataError, match="law.bin: not a law file"):
        loopscale.read_law(str(binary))
    with pytest.raises(loopscale.UsageError):
        loopscale.Law(None)
    with pytest.raises(loopscale.UsageError):
        loopscale.read_law(None)
    with pytest.raises(loopscale.UsageError):
        loopscale.read_law("bad\ud800name.json")
    with pytest.raises(loopscale.UsageError):
        loopscale.Sweep(["bad\ud800name.csv"])


def test_sweep_is_read_and_checked_at_construction(tmp_path):
    with pytest.raises(loopscale.NoInputError):
        loopscale.Sweep(str(tmp_path / "missing.csv"))
    path = write(tmp_path / "runs.csv", "n_act,tokens,loss\n1e8,2e9,3.1\n2e8,4e9,2.7x\n")
    with pytest.raises(loopscale.DataError, match=r"runs.csv:3: column 'loss': '2.7x' is not a number"):
        loopscale.Sweep(path)
    assert loopscale.Sweep(DENSE).n == 140


def test_dataframe_errors_name_the_row_and_laws_record_the_table():
    pd = pytest.importorskip("pandas")
    runs = pd.DataFrame({"n_act": [1e8, 2e8, 4e8], "tokens": [2e9, 4e9, 8e9], "loss": [3.1, -2.7, 2.5]},
                        index=["a", "b", "c"])
    with pytest.raises(loopscale.DataError) as e:
        loopscale.Sweep(runs)
    assert str(e.value).startswith("<DataFrame> row 'b'")
    assert "column 'loss'" in str(e.value) and "/tmp" not in str(e.value)
    good = pd.DataFrame({"n_act": [1.1e8, 1.1e8, 4.2e8, 4.2e8, 1.3e9, 1.3e9, 2.385e9, 2.385e9],
                         "tokens": [2.2e9, 8.8e9, 8.4e9, 3.4e10, 2.6e10, 1.0e11, 4.8e10, 1.9e11],
                         "loss": [3.38, 3.12, 2.92, 2.71, 2.62, 2.46, 2.50, 2.37]})
    law = loopscale.fit(loopscale.Sweep(good), "dense")
    assert law.fit["data"][0]["file"] == "<DataFrame>"
    assert len(law.fit["data"][0]["sha256"]) == 64
