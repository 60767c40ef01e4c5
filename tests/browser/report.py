#!/usr/bin/python3
"""The report page in a real browser: Debian's Chromium, headless.

    tests/browser/report.py LOOPSCALE_BINARY ROOT [--update]

Writes a report of a small looped-MoE sweep (tests/data/report), opens it in headless
Chromium and takes a screenshot, then checks that
  - the page loads with no console message at all (an error, a blocked
    fetch, a Content-Security-Policy violation: Chromium logs each as a
    ':CONSOLE' line with --enable-logging=stderr); a page made to log two
    such messages shows that the check sees them;
  - the screenshot matches tests/browser/report-reference.png by a tolerant
    image difference, never by bytes: both are taken to grey at half size
    (which evens out sub-pixel text placement), and at most MAX_CHANGED of
    the pixels may differ by more than FUZZ grey levels.  A blank page
    differs from the reference by far more than that, which the test checks
    too, so the tolerance cannot quietly grow to accept anything.  Measured
    on such pages: the same page with one digit changed
    differs in 0.01% of pixels, the report of another sweep in 3.2%, a blank
    page in 6.4%.
--update rewrites the reference after an intended change of the page (look
at it first).  Exits 77 (a CTest skip) when chromium or python3-pil is
missing; CI installs both (scripts/install-deps)."""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
WINDOW = (1100, 2200)  # CSS pixels: the summary, the fit, its figure, the comparison
FUZZ = 32              # grey levels (of 255) a pixel may move and still count as the same
MAX_CHANGED = 0.01     # share of pixels that may differ by more than FUZZ

try:
    from PIL import Image, ImageChops
except ImportError:
    print("SKIP: python3-pil is not installed")
    sys.exit(SKIP)


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(browser, page, shot, tmp):
    """Screenshot of page; returns the console lines Chromium logged."""
    cmd = [browser, "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
           "--no-first-run", "--user-data-dir=" + os.path.join(tmp, "profile"),
           "--enable-logging=stderr", "--v=0", "--force-device-scale-factor=1",
           "--window-size=%d,%d" % WINDOW, "--screenshot=" + shot, "file://" + os.path.abspath(page)]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240,
                         env=dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC"))
    if run.returncode != 0 or not os.path.exists(shot):
        sys.exit("FAIL: chromium exited %d without a screenshot:\n%s" % (run.returncode, run.stderr.decode(errors="replace")))
    return [l for l in run.stderr.decode(errors="replace").splitlines() if ":CONSOLE" in l]


def grey_half(path):
    img = Image.open(path).convert("L")
    return img.resize((img.width // 2, img.height // 2), Image.BOX)


def changed_share(a, b):
    diff = ImageChops.difference(a, b)
    changed = sum(diff.histogram()[FUZZ + 1:])
    return changed / float(a.width * a.height)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    update = "--update" in sys.argv[3:]
    browser = chromium()
    if not browser:
        print("SKIP: chromium is not installed (apt-get install chromium)")
        sys.exit(SKIP)
    reference = os.path.join(root, "tests", "browser", "report-reference.png")
    tmp = tempfile.mkdtemp(prefix="loopscale-browser-")
    try:
        # A fixed relative name, so that the page does not show this
        # machine's paths.
        os.symlink(os.path.join(root, "tests", "data", "report", "looped-moe-small.csv"),
                   os.path.join(tmp, "looped-moe-small.csv"))
        subprocess.run([binary, "report", "--axes", "R,E", "--flops", "1e22", "--mem", "3GB", "--bits", "4",
                        "-o", "report.html", "looped-moe-small.csv"], cwd=tmp, check=True)

        # The console check sees what it must: a script error and a blocked fetch.
        bad = os.path.join(tmp, "bad.html")
        with open(bad, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset='utf-8'><meta http-equiv='Content-Security-Policy' "
                    "content=\"default-src 'none'; img-src data:\"></head><body><p>bad</p>"
                    "<img src='http://127.0.0.1:9/x.png' alt=''></body></html>\n")
        bad_lines = render(browser, bad, os.path.join(tmp, "bad.png"), tmp)
        if not bad_lines:
            sys.exit("FAIL: a page with a blocked fetch logged no console line: the console check is blind")

        shot = os.path.join(tmp, "report.png")
        lines = render(browser, os.path.join(tmp, "report.html"), shot, tmp)
        if lines:
            sys.exit("FAIL: the report logged to the console:\n" + "\n".join(lines))
        got = grey_half(shot)
        if update:
            got.save(reference, optimize=True)
            print("updated %s (%dx%d)" % (reference, got.width, got.height))
            return
        want = Image.open(reference).convert("L")
        if got.size != want.size:
            sys.exit("FAIL: screenshot is %dx%d at half size, the reference %dx%d" % (got.size + want.size))
        share = changed_share(got, want)
        blank = changed_share(Image.new("L", want.size, 255), want)
        print("console: none (the control page logged %d lines); screenshot differs from the reference in %.3f%% "
              "of pixels by more than %d grey levels (allowed %.1f%%; a blank page: %.1f%%)"
              % (len(bad_lines), 100 * share, FUZZ, 100 * MAX_CHANGED, 100 * blank))
        if blank <= MAX_CHANGED:
            sys.exit("FAIL: a blank page would pass: the tolerance is too loose for this reference")
        if share > MAX_CHANGED:
            kept = os.path.abspath("report-screenshot.png")
            shutil.copy(shot, kept)
            ImageChops.difference(got, want).point(lambda v: 255 if v > FUZZ else 0).save(
                os.path.abspath("report-difference.png"))
            sys.exit("FAIL: the screenshot differs from the reference (kept as %s, with report-difference.png)" % kept)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
