import app.missing_module  # COLLECT-FAILS-HERE


def test_never():
    pass
