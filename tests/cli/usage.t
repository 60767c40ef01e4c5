Help goes to standard output with status 0; usage errors to standard error with 64.

  $ loopscale --version
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale --help
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale help predict | head -3
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  $ loopscale predict --help | head -1
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  $ loopscale
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale frobnicate
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale help frobnicate
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale predict --bogus
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale predict -x
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale predict --law
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
  $ loopscale predict --format xml --law x.json s.csv
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]

A failed write of the results is a failure (74):

  $ loopscale --help > /dev/full
  /work/main/tests/cli/bin/loopscale: 4: exec: build/loopscale: not found
  [127]
