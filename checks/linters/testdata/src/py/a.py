import subprocess
import pickle


def f(cmd, data):
    x = "😀"; subprocess.call(cmd, shell=True)
    return pickle.loads(data)


def login(password="Sup3rSecretValue"):
    connect(password="InlineSecretPw")
