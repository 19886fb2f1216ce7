"""How one app process serves a crowd: the Gradio settings that cost CPU on every event for
features this app does not use, switched off before the queue is built.

Measured with ``python -m benchmarks.load`` (see the README's "Serving a crowd"): Gradio's
queue rebuilds a pandas DataFrame of up to 10,000 past events after every event, to keep
the summary its ``/monitoring`` page shows (about a fifth of the server's CPU per event at
first, more as events pile up); the app has no use for that page, nor for Gradio's
telemetry, which calls home from a server that may have no way out.
"""

from __future__ import annotations

import os
from typing import Any

QUEUE_ENV = {
    # recompute the /monitoring summary once per 10^9 events, i.e. never ...
    "GRADIO_ANALYTICS_CACHE_FREQUENCY": str(10**9),
    # ... and keep one event's timings for it instead of 10,000
    "GRADIO_ANALYTICS_MAX_EVENTS": "1",
}
BLOCKS: dict[str, Any] = {"analytics_enabled": False}
"""``gr.Blocks`` options: no telemetry."""
QUEUE: dict[str, Any] = {"default_concurrency_limit": 16}
"""``Blocks.queue`` options: up to 16 runs of one handler at once (agents reply in threads)."""
API: dict[str, Any] = {"preprocess": False, "postprocess": False}
"""Event options of the JSON endpoints for gradio_client: their inputs (text, numbers, a
checkbox) and answers (plain JSON) need no conversion, and each conversion Gradio runs is a
hop to a worker thread per component per call."""
LAUNCH: dict[str, Any] = {"enable_monitoring": False}
"""``Blocks.launch`` options: no ``/monitoring`` page (its summary is not kept, see above)."""


def lighten_queue() -> None:
    """Set the queue's environment knobs (unless the environment already sets them); call
    before ``Blocks.queue``, which reads them."""
    for name, value in QUEUE_ENV.items():
        os.environ.setdefault(name, value)
