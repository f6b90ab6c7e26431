# Aliased, from- and star-imports must resolve to the dangerous module.
import subprocess as sp
import yaml as y
import os.path
from os import system as run_shell
from pickle import loads as unpickle
from hashlib import md5
from ssl import CERT_NONE, _create_unverified_context as unverified
from random import *
from subprocess import *


def go(cmd, data, password):
    sp.Popen(cmd, shell=1)  # want: py-subprocess-shell
    run_shell(cmd)  # want: py-os-system
    unpickle(data)  # want: py-pickle-load
    y.load(data)  # want: py-yaml-load
    hashed = md5(password.encode()).hexdigest()  # want: py-weak-password-hash
    mode = CERT_NONE  # want: py-ssl-unverified
    ctx = unverified()  # want: py-ssl-unverified
    session_token = str(getrandbits(64))  # want: py-insecure-random
    check_output(cmd, shell=True)  # want: py-subprocess-shell
    return hashed, mode, ctx, session_token
