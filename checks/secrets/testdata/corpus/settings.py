"""Django-style settings with planted fake secrets."""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

# Decoys
SECRET_KEY_FALLBACK = os.environ["DJANGO_SECRET_KEY"]
DB_PASSWORD_FROM_ENV = os.environ.get("DB_PASSWORD")
API_TOKEN = os.getenv("API_TOKEN")
password = "password"
password_hash = "$2b$12$KIXQJ1fyR4dQ9Jx0C8B3wOa2bq6u1sJq9fF8XvZpQ7r5bYd3n1YkS"
token_type = "Bearer"
auth_endpoint = "https://login.example.org/oauth2/v2.0/authorize"
secret_file = "/run/secrets/db_password"
EXAMPLE_KEY = "<your-api-key>"
placeholder_secret = "xxxxxxxxxxxxxxxxxxxx"
access_key = "AKIAIOSFODNN7EXAMPLE"
secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
session_id = "04367d69-0230-447b-a738-6fab40b2595d"
revision = "4710c920e658b9a3de516b6aeb2938fbada78837"
broker_url = "amqp://guest:guest@localhost:5672//"
cache_url = "redis://localhost:6379/0"

# Planted
SECRET_KEY = "django-insecure-4Ig5pMsLmcOUCfXq+Ry#+%Ic!LyU*bpLuIl=Uxz!KX%!5kEfrJ"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "shop",
        "USER": "shop",
        "PASSWORD": "Vf3ec#eXmc@jpOuQ",
        "HOST": "db",
    }
}
OPENAI_API_KEY = "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"
HUGGINGFACE_TOKEN = "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"
SENDGRID_API_KEY = os.environ["SENDGRID_API_KEY"]
sendgrid_key = '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'
TWILIO_API_KEY = "SKa03068c5a86715d49f591ea1193a6488"
twilio_auth_token: str = "edc37e4702cd6b943eac3b2946c3f144"
CELERY_BROKER_URL = "redis://:GALyGuNC1xhNrNUfOv@cache.internal:6379/0"
MONGO_URI = "mongodb+srv://svc:sjjNUFQwGSkRCfifdJ@cluster0.abcde.mongodb.net/prod"


def client():
    import requests
    return requests.Session(), b"ghu_ytujsQ7mMDB4tPfCMxfxCgJDIPTiYF0stIib"
