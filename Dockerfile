# One image for the web process, the Celery worker and beat (docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
# Static files are built into the image (whitenoise serves them from every web container).
RUN SECRET_KEY=build-only-collectstatic-key-not-used-at-run-time-0123456789 \
    ALLOWED_HOSTS=localhost DJANGO_SETTINGS_MODULE=config.settings.production \
    python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /data/media && chown app /data/media
USER app
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--config", "config/gunicorn.py"]
