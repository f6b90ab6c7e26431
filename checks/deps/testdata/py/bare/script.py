import requests
import hallucinated
