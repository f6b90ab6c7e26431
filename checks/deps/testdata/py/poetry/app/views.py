from django.http import HttpResponse
import asgiref
import sqlparse
import pytest_django
from rest_framework import viewsets  # want py-unresolved-import "rest_framework"
