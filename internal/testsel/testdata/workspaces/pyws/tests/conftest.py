import pytest


@pytest.fixture
def sample_text():
    return "the quick brown fox"
