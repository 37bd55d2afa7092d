"""A webhook receiver that takes only what kaiten signed, recently, once: copy `verify` into yours.

    KAITEN_WEBHOOK_SECRET=<the webhook's secret> python docs/webhook_receiver.py 8080

Each delivery attempt carries `Kaiten-Signature: t=<unix seconds>,v1=<hex>`, where v1 is the
HMAC-SHA256, with the webhook's secret, of `<t>.<X-Kaiten-Delivery>.<body>`. A receiver recomputes
it, compares in constant time, refuses a time more than five minutes from its own clock (a request
recorded and sent again later), and deduplicates on the delivery id, which the signature covers
(deliveries come at least once). It answers 2xx to what it took; kaiten retries anything else.

Standard library only; tests/e2e/test_webhook_signatures.py runs this very file against kaiten.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: How far the signed time may be from the receiver's clock.
TOLERANCE_SECONDS = 300


def verify(secret: str, header: str, delivery_id: str, body: bytes, now: float | None = None) -> bool:
    """Whether `header` (Kaiten-Signature) signs this body and delivery id, at a time close to now."""
    fields = dict(part.strip().split("=", 1) for part in header.split(",") if "=" in part)
    timestamp = fields.get("t", "")
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12):
        return False
    if abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    message = f"{timestamp}.{delivery_id}.".encode() + body
    expected = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return hmac.compare_digest(fields.get("v1", ""), expected)


class Receiver(BaseHTTPRequestHandler):
    secret = os.environ.get("KAITEN_WEBHOOK_SECRET", "")
    #: Deliveries taken (a real receiver keeps them where its work is, for as long as it needs to).
    taken: set[str] = set()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        delivery_id = self.headers.get("X-Kaiten-Delivery", "")
        if not verify(self.secret, self.headers.get("Kaiten-Signature", ""), delivery_id, body):
            self.send_response(401)
        else:
            if delivery_id not in self.taken:
                self.taken.add(delivery_id)
                print(json.dumps({"delivery": delivery_id, **json.loads(body)}), flush=True)
            self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: each delivery taken is printed once, as a JSON line."""


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver)
    print(f"listening on {server.server_port}", flush=True)
    server.serve_forever()
