import sys

import pytest

from app.parse import parse_port


def test_passes():
    print("some captured stdout")
    assert parse_port("80") == 80


def test_assertion():
    expected = {"a": 1, "b": 2}
    assert {"a": 1, "b": 3} == expected  # FAILS-HERE test_assertion


def test_parse_port_range():
    parse_port("70000")


@pytest.mark.skip(reason="needs a network")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.fixture
def broken_fixture():
    raise RuntimeError("fixture setup failed")  # SETUP-FAILS-HERE test_setup_error


def test_setup_error(broken_fixture):
    pass


class TestGroup:
    def test_method(self):
        print("to stderr", file=sys.stderr)
        assert 1 + 1 == 2

    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n == 1  # FAILS-HERE TestGroup::test_param[2]
