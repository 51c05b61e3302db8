"""The app in a process of its own, pointed at a Redis the test controls, answering requests
the test sends it (``python -m tests.hardening.redis_outage_client``).

The test (``test_redis_outage.py``) starts a redis-server on a port of its own and this process
with ``REDIS_URL`` naming it: cache, throttles, token lookups and the Celery broker all talk to
that server, through the app's real code; only the address differs from a deployment. The test
then stops or freezes the server between requests. Each line on stdin is a request as JSON
(``method``, ``path``, optional ``token``, ``session`` to send the signed-in session, ``data``,
``json`` for a JSON body, ``form`` for a form post); each answer is one line of JSON on stdout:
``status``, ``seconds`` the request took, ``content_type``, ``retry_after`` and the ``body``'s
start. ``{"login": <user id>}`` signs the session in first.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def main() -> None:
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User

    anonymous = Client(raise_request_exception=False)
    session = Client(raise_request_exception=False)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        ask: dict[str, Any] = json.loads(line)
        if "login" in ask:
            session.force_login(User.objects.get(pk=ask["login"]))
            print(json.dumps({"login": True}), flush=True)
            continue
        client = session if ask.get("session") else anonymous
        headers = {"HTTP_AUTHORIZATION": f"Token {ask['token']}"} if ask.get("token") else {}
        method = getattr(client, ask.get("method", "GET").lower())
        kwargs: dict[str, Any] = dict(headers)
        if "data" in ask:
            kwargs["data"] = ask["data"]
            if ask.get("json"):
                kwargs["content_type"] = "application/json"
        began = time.monotonic()
        response = method(ask["path"], **kwargs)
        seconds = time.monotonic() - began
        body = b"".join(response.streaming_content) if response.streaming else response.content
        print(
            json.dumps(
                {
                    "status": response.status_code,
                    "seconds": round(seconds, 3),
                    "content_type": response.get("Content-Type", ""),
                    "retry_after": response.get("Retry-After"),
                    "body": body[:200_000].decode(errors="replace"),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
