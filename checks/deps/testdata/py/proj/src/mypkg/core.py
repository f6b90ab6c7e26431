"""Imports an assistant might write. Each "want" comment names the rule that
must fire on that line and the text it must cover.

import indocstring
"""
from __future__ import annotations

import os, sys
import json as j
from collections import abc
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import requests
import yaml
from dateutil import parser
import cv2
from bs4 import BeautifulSoup
import hypothesis
from google.cloud import storage
import six
import attr
import pthmod
import pytest
import acmelib
import setuptools
from mypkg import util
from . import util as u2
from .util import X

import reqeusts  # want py-unresolved-import "reqeusts" fix="requests"
import numpy as np  # want py-unresolved-import "numpy"
from fastjsonparse import loads  # want py-unresolved-import "fastjsonparse"
import os.path, colourama  # want py-unresolved-import "colourama" fix="colorama"
from \
    hallucinated_sdk.client import Client  # want py-unresolved-import "hallucinated_sdk"

try:
    import ujson as json
except ImportError:
    import json

try:
    import orjson
except (ImportError, AttributeError):
    orjson = None

try:
    import simdjson  # want py-unresolved-import "simdjson"
finally:
    pass
import this_is_after_try  # want py-unresolved-import "this_is_after_try"

if TYPE_CHECKING:
    from typing_extensions import Self  # want py-unresolved-import "typing_extensions"

s = "import notreal"
t = 'from also_not_real import x'
# import commented_out
f = f"{j.dumps({'import': 1})} import in_fstring"
g = f"{'x'!r:>{10}}" ; import semicolon_mod  # want py-unresolved-import "semicolon_mod"


def later():
    import lazy_hallucination  # want py-unresolved-import "lazy_hallucination"
    return rb'\d' + b"import bytes_mod"


class K:
    x: int = 1
    if True: import one_liner_mod  # want py-unresolved-import "one_liner_mod"
