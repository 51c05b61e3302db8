"""The API's shared plumbing, below every app: bounded JSON input (``json_input``) and the DRF
parser built on it (``parsers``), and the token endpoint's throttle (``throttles``). It knows no
app, so the lowest app (accounts) may use it as well as the highest."""
