# The compiled battle engine (docs/native.md), built with gcc and mypy in a stage of its own
# and copied into the image below. Should the build fail, the image runs the engine
# interpreted: the same rules, slower (the stamp is only written by a complete build).
FROM python:3.11 AS native
WORKDIR /app
COPY requirements.txt requirements-dev.txt ./
RUN pip install --no-cache-dir -r requirements-dev.txt
COPY . .
RUN (python -c 'from westernroses import native; native.main()' \
     || echo "the compiled engine was not built: the image runs it interpreted") \
    && mkdir -p build/native
# The message catalogs (locale/*/LC_MESSAGES/*.mo, docs/i18n.md), compiled with gettext's msgfmt.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext >/dev/null \
    && rm -rf /var/lib/apt/lists/* \
    && SECRET_KEY=build-only-compilemessages-key-not-used-at-run-time-0123456789 \
       python manage.py compilemessages --ignore=build -v0

# One image for the web process, the Celery worker and beat (docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
COPY --from=native /app/build/native build/native
COPY --from=native /app/locale locale
# Static files are built into the image (whitenoise serves them from every web container).
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-run-time-0123456789 \
    ALLOWED_HOSTS=localhost DJANGO_SETTINGS_MODULE=config.settings.production \
    python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /data/media && chown app /data/media
USER app
EXPOSE 8000
CMD ["gunicorn", "config.asgi:application", "--config", "config/gunicorn.py"]
