"""Every command in Python against the program, on the shipped sweeps: the
same document (`.json` equals `loopscale CMD --format json`), the same
table (`.text` equals the program's standard output, option names spelt as
keywords), the same files, and the same warnings through warnings.warn."""
import base64
import html
import json
import os
import re
import warnings

import pytest

import loopscale
from conftest import DENSE, MOE, TRUTH, cli, keyword_spelling


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Inputs made once: a law fitted by the program, an IsoFLOP grid drawn
    from the truth, router logits and early-exit entropies worked by hand,
    an architecture template."""
    d = tmp_path_factory.mktemp("inputs")
    cli("fit", "-o", d / "law.json", MOE)
    cli("simulate", "--law", TRUTH, "--n-act", "2.5e7,5e7,1e8,2e8,4e8,8e8,1.6e9",
        "--tokens", "2.5e9,5e9,1e10,2e10,4e10,8e10,1.6e11", "-o", d / "runs.csv")
    (d / "hand.csv").write_text("token,loop,layer,z0,z1,z2,z3\n0,1,1,2,0,1,-1\n0,2,1,0,3,0.5,0\n"
                                "1,1,1,0,0,5,1\n1,2,1,0,0,5,2\n")
    (d / "three.csv").write_text("token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n0,3,0.5,1\n1,1,0.25,1.5\n"
                                 "1,2,3,4\n1,3,0.125,0.5\n2,1,4,2\n2,2,4,2\n2,3,4,2\n")
    (d / "template.json").write_text(json.dumps({"format": "loopscale-template/1", "attention_share": 0.2857,
                                                 "top_k": 2, "prelude_layers": 1, "loop_layers": 9,
                                                 "coda_layers": 3}))
    return {name: str(d / name) for name in ("law.json", "runs.csv", "hand.csv", "three.csv", "template.json")}


def call(command, *operands, **options):
    """The package's result, its warnings recorded (every one, in order)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = getattr(loopscale, command)(*operands, **options)
    result.caught = caught
    return result


def without_time(text):
    return re.sub(r"(?m)^time .*$", "time", text)


def same_document(got, want, command):
    if command == "fit":  # the command line it records is the caller's
        for doc in (got, want):
            doc["created_by"].pop("command")
    assert got == want


# (command, operands, Python keyword arguments, the program's options); {law}
# and the like name the module's input files.
CASES = [
    ("fit", [MOE], {}, []),
    ("fit", [DENSE], {"law": "dense:bounded", "bootstrap": 20, "seed": 7, "threads": 2},
     ["--law", "dense:bounded", "--bootstrap", "20", "--seed", "7", "--threads", "2"]),
    ("fit", [DENSE], {"law": "dense:bounded", "where": ["R<=8", "E>=1"], "fix": {"kappa2": 1.5}},
     ["--law", "dense:bounded", "--where", "R<=8", "--where", "E>=1", "--fix", "kappa2=1.5"]),
    ("holdout", [MOE], {"laws": ["moe:linear", "moe:bounded-sparse"], "axes": ["R", "E"]},
     ["--laws", "moe:linear,moe:bounded-sparse", "--axes", "R,E"]),
    ("holdout", [DENSE], {"laws": "dense:bounded", "axes": "R", "split": "R>8", "format": "csv"},
     ["--laws", "dense:bounded", "--axes", "R", "--split", "R>8", "--format", "csv"]),
    ("isofit", ["{runs.csv}"], {}, []),
    ("isofit", ["{runs.csv}"], {"method": "akima", "bootstrap": 20, "seed": 3},
     ["--method", "akima", "--bootstrap", "20", "--seed", "3"]),
    ("frontier", [], {"law": "{law.json}", "flops": "1e20:1e22:3"}, ["--law", "{law.json}", "--flops", "1e20:1e22:3"]),
    ("frontier", [], {"flops": [1e20, 1e21, 1e22], "mem": "3GB", "bits": 4},
     ["--flops", "1e20,1e21,1e22", "--mem", "3GB", "--bits", "4"]),
    ("isoflop", [], {"law": "{law.json}", "flops": [1e20, 1e21, 1e22], "E": [1, 8]},
     ["--law", "{law.json}", "--flops", "1e20,1e21,1e22", "--E", "1,8"]),
    ("predict", [], {"law": "{law.json}", "n_act": 5.455e8, "n_total": "6e9", "n_loop": 4.091e8, "R": 3, "E": 16,
                     "tokens": "1.222T"},
     ["--law", "{law.json}", "--n-act", "5.455e8", "--n-total", "6e9", "--n-loop", "4.091e8", "--R", "3", "--E",
      "16", "--tokens", "1.222T"]),
    ("predict", [DENSE], {"law": "{law.json}", "format": "table"}, ["--law", "{law.json}"]),
    ("solve", [], {"flops": 1e22, "mem": "3GB", "bits": 4, "E": [1, 2, 4, 8, 16]},
     ["--flops", "1e22", "--mem", "3GB", "--bits", "4", "--E", "1,2,4,8,16"]),
    ("solve", [], {"flops": 1e21, "mem": 2e9, "bits": 4, "E": (1, 4, 16), "R": range(1, 9),
                   "uncertainty": True, "threads": 2, "table": True},
     ["--flops", "1e21", "--mem", "2e9", "--bits", "4", "--E", "1,4,16", "--R",
      "1,2,3,4,5,6,7,8", "--uncertainty", "--threads", "2", "--table"]),
    ("solve", [], {"template": "{template.json}", "flops": 3.7e21, "mem": "2.5GiB", "bits": 8},
     ["--template", "{template.json}", "--flops", "3.7e21", "--mem", "2.5GiB", "--bits", "8"]),
    ("solve", [], {"flops": 1e22, "mem": "3GB", "bits": 4, "E": [1, 4, 16], "context": 8192, "batch": 8,
                   "kv_bits": 8, "activation_memory": "200MB"},
     ["--flops", "1e22", "--mem", "3GB", "--bits", "4", "--E", "1,4,16", "--context", "8192", "--batch", "8",
      "--kv-bits", "8", "--activation-memory", "200MB"]),
    ("solve", [], {"flops": 1e22, "mem": "3GB", "bits": 4, "E": [1, 4, 16], "inference_tokens": "1T", "table": True},
     ["--flops", "1e22", "--mem", "3GB", "--bits", "4", "--E", "1,4,16", "--inference-tokens", "1T", "--table"]),
    ("solve", [], {"target_loss": 2.15, "mem": "3GB", "bits": 4, "E": [1, 4, 16], "R": [1, 2, 4],
                   "inference_tokens": 1e13},
     ["--target-loss", "2.15", "--mem", "3GB", "--bits", "4", "--E", "1,4,16", "--R", "1,2,4", "--inference-tokens",
      "1e13"]),
    ("frontier", [], {"flops": [1e20, 1e22], "mem": "3GB", "bits": 4, "context": 4096, "inference_tokens": 1e12},
     ["--flops", "1e20,1e22", "--mem", "3GB", "--bits", "4", "--context", "4096", "--inference-tokens", "1e12"]),
    ("shape", [], {"d_model": 1024, "d_ff": 4096, "vocab": 32000, "layers": 4, "loops": 3, "experts": 8,
                   "top_k": 2, "head_layers": 1, "tail_layers": 1},
     ["--d-model", "1024", "--d-ff", "4096", "--vocab", "32000", "--layers", "4", "--loops", "3", "--experts", "8",
      "--top-k", "2", "--head-layers", "1", "--tail-layers", "1"]),
    ("route", ["{hand.csv}"], {"top_k": 1, "per_loop": True}, ["--top-k", "1", "--per-loop"]),
    ("exit", ["{three.csv}"], {"thresholds": [0.2, 0.3, 1.5, 3, 5], "at": [5, 50, 70]},
     ["--thresholds", "0.2,0.3,1.5,3,5", "--at", "5,50,70"]),
]


def fill(value, files):
    if isinstance(value, str) and value.startswith("{") and value.endswith("}") and value[1:-1] in files:
        return files[value[1:-1]]
    if isinstance(value, list):
        return [fill(v, files) for v in value]
    return value


@pytest.mark.parametrize("command, operands, kwargs, args", CASES,
                         ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_command_is_the_programs(files, command, operands, kwargs, args):
    operands = fill(operands, files)
    kwargs = {k: fill(v, files) for k, v in kwargs.items()}
    args = fill(args, files)
    got = call(command, *operands, **kwargs)
    table = cli(command, *args, *operands)
    assert without_time(keyword_spelling(got.text)) == without_time(keyword_spelling(table.stdout))
    # Every warning the program prints, in order, with the code of its kind.
    assert [str(w.message) for w in got.caught] == [keyword_spelling(m) for m in table.warnings(command)]
    assert all(isinstance(w.message, loopscale.LoopscaleWarning) for w in got.caught)
    assert [w.message.code for w in got.caught] == [code for code, _, _ in got.warnings]
    document = cli(command, *[a for a in args if a not in ("--format", "csv", "table")], "--format", "json",
                   *operands)
    if command == "predict" and operands:
        # Over a sweep the document exists only as what --format json prints.
        assert got.json is None
        assert call(command, *operands, **{k: v for k, v in kwargs.items() if k != "format"}).text == \
            document.stdout
    elif command == "isoflop":
        # A table shows the minima: its document leaves the profiles' points out.
        want = document.json
        for p in want["profiles"]:
            del p["points"]
        assert got.json == want
        assert call(command, *operands, **kwargs, format="json").json == document.json
    else:
        same_document(got.json, document.json, command)


def test_the_readme_question_warns_as_the_program(tmp_path):
    """README's question asked from a script: every warning the program
    prints reaches warnings.warn, with a category per code; and the same at
    1e27 FLOPs, far outside the sweep."""
    fitted = call("fit", MOE)
    law_file = tmp_path / "law.json"
    cli("fit", "-o", law_file, MOE)
    for flops in ("1e22", "1e27"):
        got = call("solve", law=fitted.law, flops=float(flops), mem="3GB", bits=4, E=[1, 2, 4, 8, 16])
        want = cli("solve", "--law", law_file, "--flops", flops, "--mem", "3GB", "--bits", "4",
                   "--E", "1,2,4,8,16")
        assert got.text == want.stdout
        assert len(got.caught) == len(want.warnings("solve")) >= 4
        assert [str(w.message) for w in got.caught] == [keyword_spelling(m) for m in want.warnings("solve")]
        codes = [w.message.code for w in got.caught]
        assert set(codes) == {"serving", "extrapolation", "search-edge"}  # serving: --bits 4 without a penalty
        for w in got.caught:
            assert w.category is {"extrapolation": loopscale.ExtrapolationWarning,
                                  "search-edge": loopscale.SearchEdgeWarning,
                                  "serving": loopscale.ServingWarning}[w.message.code]
            assert w.filename == __file__  # stacklevel=2: the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error", loopscale.ExtrapolationWarning)
        with pytest.raises(loopscale.ExtrapolationWarning, match="outside the ranges the law was fitted on"):
            loopscale.solve(law=fitted.law, flops=1e27, mem="3GB", bits=4)


def test_fit_flags_an_undetermined_parameter_as_the_program(tmp_path):
    """A sweep stopping at E = 16 determines the MoE terms loosely: the
    program warns, and so does fit() (as UndeterminedParameterWarning, about
    the parameter)."""
    want = cli("fit", "--where", "E<=16", MOE)
    got = call("fit", MOE, where="E<=16")
    assert want.warnings("fit") and [str(w.message) for w in got.caught] == want.warnings("fit")
    undetermined = [w.message for w in got.caught if w.category is loopscale.UndeterminedParameterWarning]
    assert undetermined and all(w.subject in got.law.params for w in undetermined)


def test_template_solve_is_the_programs_to_the_last_digit(files):
    got = call("solve", template=files["template.json"], flops=3.7e21, mem="2.5GiB", bits=8, E=[2, 4, 8])
    want = cli("solve", "--template", files["template.json"], "--flops", "3.7e21", "--mem", "2.5GiB", "--bits", "8",
               "--E", "2,4,8", "--format", "json").json
    assert got.json == want
    assert got.json["chosen"]["n_act"] == want["chosen"]["n_act"]  # float equality: bit for bit
    printed = call("solve", template=files["template.json"], print_template=True, flops=1e21)
    assert printed.text == cli("solve", "--template", files["template.json"], "--print-template",
                               "--flops", "1e21").stdout


def strip_invocation(data, invocation):
    """Report and figure bytes with the recorded command line (the caller's)
    taken out, images decoded so that their metadata can be."""
    text = data.decode()

    def svg(m):
        return "SVG[%s]" % base64.b64decode(m.group(1)).decode()

    text = re.sub(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", svg, text)
    text = re.sub(r"<metadata>.*?</metadata>", "<metadata/>", text, flags=re.S)
    # cairo numbers its surfaces by a counter of the process.
    text = re.sub(r"surface\d+", "surface", text)
    escaped = html.escape(invocation).replace("&#x27;", "&#39;")
    for inv in (invocation, escaped):
        text = text.replace(inv, "INVOCATION")
    return text


def test_files_are_the_programs(files, tmp_path):
    """-o, --plot, report and plan write what the program writes, and only
    after a successful run."""
    py, prog = tmp_path / "py", tmp_path / "cli"
    py.mkdir()
    prog.mkdir()
    jobs = [
        ("fit", [DENSE], {"law": "dense:bounded", "output": "law.json.gz", "plot": "fit.svg"},
         ["--law", "dense:bounded", "-o", "law.json.gz", "--plot", "fit.svg"], ["law.json.gz", "fit.svg"]),
        ("solve", [], {"law": files["law.json"], "flops": 1e22, "mem": "3GB", "bits": 4, "plot": "solve.svg"},
         ["--law", files["law.json"], "--flops", "1e22", "--mem", "3GB", "--bits", "4", "--plot", "solve.svg"],
         ["solve.svg"]),
        ("simulate", [], {"law": TRUTH, "n_act": [1e8, 3e8], "tokens": [1e10, 2e10], "noise": 0.01,
                          "output": "sim.csv.gz"},
         ["--law", TRUTH, "--n-act", "1e8,3e8", "--tokens", "1e10,2e10", "--noise", "0.01", "-o", "sim.csv.gz"],
         ["sim.csv.gz"]),
        ("plan", [], {"budget": 1e21, "flops": 1e20, "output": "plan.csv"},
         ["--budget", "1e21", "--flops", "1e20", "-o", "plan.csv"], ["plan.csv"]),
        ("report", [DENSE], {"laws": ["dense:linear", "dense:bounded"], "flops": 1e21, "output": "report.html"},
         ["--laws", "dense:linear,dense:bounded", "--flops", "1e21", "-o", "report.html"], ["report.html"]),
    ]
    cwd = os.getcwd()
    for command, operands, kwargs, args, outputs in jobs:
        os.chdir(py)
        try:
            got = call(command, *operands, **kwargs)
        finally:
            os.chdir(cwd)
        want = cli(command, *args, *operands, cwd=prog)
        assert without_time(got.text) == without_time(want.stdout)
        assert got.outputs == outputs
        for name in outputs:
            a, b = (py / name).read_bytes(), (prog / name).read_bytes()
            if name.endswith(".gz"):
                import gzip
                a, b = gzip.decompress(a), gzip.decompress(b)
            if command == "fit":
                a = json.loads(a) if name.startswith("law") else a
                b = json.loads(b) if name.startswith("law") else b
                if isinstance(a, dict):
                    same_document(a, b, "fit")
                    continue
            cli_invocation = "loopscale %s %s" % (command, " ".join(map(str, args + operands)))
            assert strip_invocation(a, got.invocation) == strip_invocation(b, cli_invocation), name
