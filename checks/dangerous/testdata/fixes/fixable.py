import os
import subprocess
import tarfile

import torch
import yaml


def go(path, fh, dest):
    conf = yaml.load(fh)
    legacy = yaml.load(fh, Loader=yaml.Loader)
    subprocess.run("ls -l /tmp", shell=True)
    subprocess.run(["ls", path], shell=True)
    model = torch.load(path)
    os.chmod(path, 0o777)
    with tarfile.open(path) as tar:
        tar.extractall(dest)
    subprocess.run("ls " + path, shell=True)  # no mechanical fix
    return conf, legacy, model
