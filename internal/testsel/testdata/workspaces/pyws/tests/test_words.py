import textx.words
from helpers import words_of


def test_count(sample_text):
    assert textx.words.count_words(sample_text) == len(words_of(sample_text))
