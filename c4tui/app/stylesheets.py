"""Where the app's styles live: the game screen's (app.tcss), then the other screens'
(screens.tcss), in that order, as one cascade. The served app adds served.tcss."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

STYLESHEETS = [HERE / "app.tcss", HERE / "screens.tcss"]
SERVED_STYLESHEETS = [*STYLESHEETS, HERE / "served.tcss"]
