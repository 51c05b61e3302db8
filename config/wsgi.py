"""WSGI entry point: Django's ``runserver`` (``make run``), any WSGI server, and the production
web process through the ASGI bridge of ``config/asgi.py``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()
