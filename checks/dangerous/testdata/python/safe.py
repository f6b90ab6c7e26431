"""Safe Python: nothing here may be reported.

Mentions in docstrings do not count: eval(x), os.system(cmd), pickle.loads(b),
yaml.load(s), subprocess.run(cmd, shell=True), requests.get(u, verify=False).
"""
import ast
import hashlib
import json
import os
import random
import secrets
import shlex
import subprocess
import tarfile
import tempfile
import zipfile

import requests
import torch
import yaml
from yaml import SafeLoader, load


# eval(user_input) in a comment is not code.
# subprocess.run(cmd, shell=True)
def parse(text, fh, path, url):
    value = ast.literal_eval(text)
    data = json.loads(text)
    conf = yaml.safe_load(fh)
    conf2 = yaml.load(fh, Loader=yaml.SafeLoader)
    conf3 = load(fh, Loader=SafeLoader)
    conf4 = yaml.load(fh, yaml.CSafeLoader)
    weights = torch.load(path, weights_only=True)
    resp = requests.get(url, timeout=5)
    resp2 = requests.get(url, verify="/etc/ssl/ca.pem")
    resp3 = requests.post(url, verify=True)
    msg = "never call eval(x) or os.system(y) or pickle.loads(z)"
    sql_doc = "cursor.execute('SELECT * FROM t WHERE a = %s' % x) is wrong"
    return value, data, conf, conf2, conf3, conf4, weights, resp, resp2, resp3, msg, sql_doc


def processes(path, name, args):
    subprocess.run(["ls", "-l", path], check=True)
    subprocess.run(["git", "log", name], shell=False)
    subprocess.check_output(["grep", name, path])
    subprocess.Popen(args)
    subprocess.run(shlex.split(name))


def sql(cursor, user, uid, ids):
    cursor.execute("SELECT * FROM users WHERE name = %s", (user,))
    cursor.execute("SELECT * FROM users WHERE id = ?", [uid])
    cursor.execute("SELECT * FROM users WHERE id = %d" % uid)
    cursor.execute("SELECT * FROM users WHERE id = %(id)s", {"id": uid})
    cursor.execute("SELECT COUNT(*) FROM users")
    placeholders = ", ".join("?" for _ in ids)
    cursor.execute("DELETE FROM t WHERE id = 1")
    runner = Runner()
    runner.execute(f"deploy {user}")
    TABLE = "users"
    cursor.execute("SELECT * FROM " + TABLE + " WHERE id = %s", (uid,))
    return placeholders


class Runner:
    def execute(self, what):
        return what


def checksums(path, data):
    etag = hashlib.md5(data).hexdigest()
    fingerprint = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    good = hashlib.sha256(data).hexdigest()
    return etag, fingerprint, good


def hash_password(password, salt):
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)


def files(path, dest):
    fd, name = tempfile.mkstemp()
    with tempfile.NamedTemporaryFile() as tmp:
        pass
    with tarfile.open(path) as tar:
        tar.extractall(dest, filter="data")
    with zipfile.ZipFile(path) as zf:
        zf.extractall(dest)
    os.chmod(path, 0o644)
    os.makedirs(dest, mode=0o755, exist_ok=True)
    return fd, name, tmp


def tls_state(ctx):
    import ssl
    if ctx.verify_mode == ssl.CERT_NONE:
        raise ValueError("refusing an unverified context")
    return ctx.verify_mode != ssl.CERT_NONE


def randomness(items):
    token = secrets.token_urlsafe(32)
    jitter = random.uniform(0, 1.5)
    pick = random.choice(items)
    shuffled = random.sample(items, len(items))
    return token, jitter, pick, shuffled


def eval_like(model, expr):
    model.eval()
    literal = eval("1 + 2")
    res = re_compile(expr)
    return literal, res


def re_compile(expr):
    import re
    return re.compile(expr)


def local_shadow(data):
    def eval(x):
        return x
    pickle = json
    return eval(data), pickle.loads(data)


def flask_like(app, debug):
    app.run(debug=False)
    app.run(debug=debug)
