"""pytest settings for the loopscale tests run by CTest."""


def pytest_sessionfinish(session, exitstatus):
    """A run that passed but skipped some tests (../shared's data absent)
    exits 77, which CTest reports as Skipped rather than Passed, so that a CI
    run that should have had the data fails (scripts/test)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = 77
