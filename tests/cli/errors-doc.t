docs/errors.md, the catalogue of bad inputs, is generated from the CLI tests
that pin them; it must say what they say.  After changing a test, run
python3 tests/cli/catalogue.py > docs/errors.md.

  $ python3 $ROOT/tests/cli/catalogue.py $ROOT | diff -u $ROOT/docs/errors.md - && echo same
  same
