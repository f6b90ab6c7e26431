# A file that does not parse: the parser recovers and the rules still run.
import os
import pickle

def half(data:
    return pickle.loads(data)  # want: py-pickle-load

x = = 1
y = eval(input())  # want: py-eval
}}}
os.system("ls " + x)  # want: py-os-system

def tail(data):
    return pickle.loads(data  # an unclosed call at the end of the file is no call
