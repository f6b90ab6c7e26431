"""Dangerous Python patterns. Each line marked `want:` must be reported
with exactly those rules; no other line may be."""
import hashlib
import os
import pickle as p
import random
import shelve
import ssl
import subprocess
import tarfile
import tempfile

import dill
import marshal
import requests
import torch
import yaml
from flask import Flask
from subprocess import run as r, Popen
from yaml import load as yload


def run_user_code(expr, code, src):
    value = eval(expr)  # want: py-eval
    exec(code)  # want: py-exec
    return compile(src, "<user>", "exec"), value  # want: py-compile


def shell_calls(user_dir, name):
    subprocess.run("ls -l " + user_dir, shell=True)  # want: py-subprocess-shell
    subprocess.call(f"grep {name} /etc/passwd", shell=True)  # want: py-subprocess-shell
    r("tar czf backup.tgz %s" % user_dir, shell=True)  # want: py-subprocess-shell
    Popen(["ls", user_dir], shell=True)  # want: py-subprocess-shell
    subprocess.check_output("uptime", shell=True)  # want: py-subprocess-shell
    subprocess.getoutput("du -sh " + user_dir)  # want: py-subprocess-shell
    os.system("rm -rf /tmp/" + name)  # want: py-os-system
    out = os.popen(f"cat {name}").read()  # want: py-os-popen
    os.system("clear")  # want: py-os-system
    return out


def multi_line(cmd):
    return subprocess.run(  # want: py-subprocess-shell
        cmd,
        shell=True,
        check=True,
    )


def deserialize(blob, fh):
    a = p.loads(blob)  # want: py-pickle-load
    b = pickle.load(fh)  # want: py-pickle-load
    c = dill.loads(blob)  # want: py-pickle-load
    d = marshal.loads(blob)  # want: py-marshal-load
    e = shelve.open(fh.name)  # want: py-shelve-open
    f = yaml.load(blob)  # want: py-yaml-load
    g = yaml.load(blob, Loader=yaml.Loader)  # want: py-yaml-load
    h = yload(blob)  # want: py-yaml-load
    i = yaml.unsafe_load(blob)  # want: py-yaml-load
    model = torch.load(fh)  # want: py-torch-load
    weights = torch.load(fh, weights_only=False)  # want: py-torch-load
    return a, b, c, d, e, f, g, h, i, model, weights


def tls(url):
    requests.get(url, verify=False)  # want: py-requests-verify-false
    s = requests.Session()
    s.verify = False  # want: py-requests-verify-false
    s.post(url, data={"a": 1}, verify=False)  # want: py-requests-verify-false
    ctx = ssl._create_unverified_context()  # want: py-ssl-unverified
    ctx2 = ssl.create_default_context()
    ctx2.check_hostname = False  # want: py-ssl-unverified
    ctx2.verify_mode = ssl.CERT_NONE  # want: py-ssl-unverified
    return ctx


def sql(cursor, conn, user, uid, table):
    cursor.execute("SELECT * FROM users WHERE name = '%s'" % user)  # want: py-sql-injection
    cursor.execute(f"DELETE FROM sessions WHERE user = '{user}'")  # want: py-sql-injection
    cursor.execute("UPDATE users SET name = '{}' WHERE id = 1".format(user))  # want: py-sql-injection
    conn.execute("SELECT id FROM " + table + " WHERE id = 1")  # want: py-sql-injection
    query = "SELECT * FROM accounts WHERE owner = '" + user + "'"
    cursor.execute(query)  # want: py-sql-injection
    q2 = "SELECT * FROM t WHERE 1 = 1"
    q2 += " AND name = '%s'" % user
    cursor.executemany(q2, [])  # want: py-sql-injection


def hash_password(password):
    return hashlib.md5(password.encode()).hexdigest()  # want: py-weak-password-hash


def store(user, pw):
    user.pw_hash = hashlib.sha1(pw.encode()).hexdigest()  # want: py-weak-password-hash
    digest = hashlib.new("md5", user.password.encode())  # want: py-weak-password-hash
    return digest


def temp_and_tar(path, dest):
    name = tempfile.mktemp()  # want: py-tempfile-mktemp
    with tarfile.open(path) as tar:
        tar.extractall(dest)  # want: py-tarfile-extractall
    tf = tarfile.open(path)
    tf.extractall()  # want: py-tarfile-extractall
    os.chmod(path, 0o777)  # want: py-world-writable
    os.makedirs(dest, mode=0o777, exist_ok=True)  # want: py-world-writable
    return name


def make_token():
    token = "".join(random.choice("abcdef0123456789") for _ in range(32))  # want: py-insecure-random
    reset_code = random.randint(100000, 999999)  # want: py-insecure-random
    return token, reset_code


app = Flask(__name__)

if __name__ == "__main__":
    app.run(host="0.0.0.0", debug=True)  # want: py-flask-debug
