import requests
import hallucinated
import reqeusts  # want py-unresolved-import "reqeusts" fix="requests"
from nunpy import array  # want py-unresolved-import "nunpy" fix="numpy"
import requets  # requets.py sits next to this script
import yaml
import sklearn
import PySide  # pyside6's elder, not a typo
from PyQt4 import QtCore  # pyqt6's elder, not a typo
import urllib2  # Python 2's, behind a version check
import __pypy__
