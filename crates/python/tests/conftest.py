import warnings

# PettingZoo's API test warns about all-zero action masks of agents not to move; that is
# the documented convention here, not a problem.
warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")


def pytest_configure(config):
    # scripts/test.sh runs the suite against the wheel installed in a fresh virtualenv and
    # names its site-packages here: the package under test must be that one, not the source
    # tree's.
    import os

    expected = os.environ.get("TESSERA_INSTALLED_IN")
    if expected:
        import tessera

        if not tessera.__file__.startswith(expected):
            raise RuntimeError(f"tessera imported from {tessera.__file__}, not from {expected}")
