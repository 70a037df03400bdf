"""Run an ASGI app with uvicorn in a background thread on 127.0.0.1 (tests, notebooks).

with LiveServer(create_app(index_dir)) as server:
    httpx.get(server.url + "/healthz")
"""

from __future__ import annotations

import threading
import time
from typing import Any

from logir.errors import LogirError


class LiveServer:
    """A uvicorn server on a free port of 127.0.0.1; ``url`` is set once it accepts connections."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, timeout: float = 20.0):
        import uvicorn

        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            lifespan="off",
            timeout_keep_alive=5,
            timeout_graceful_shutdown=5,
        )
        self.server = uvicorn.Server(config)
        self.host = host
        self.timeout = timeout
        self.url = ""
        self._thread = threading.Thread(target=self.server.run, name="logir-live", daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.server.should_exit = True
                raise LogirError(f"the server on {self.host} did not start")
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://{self.host}:{port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self._thread.join(self.timeout)
