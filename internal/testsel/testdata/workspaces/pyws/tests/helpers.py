def words_of(s):
    return s.split()
