"""Where the app's styles live: the game screen's (app.tcss), then the other screens'
(screens.tcss), in that order, as one cascade. The served app adds served.tcss; the
screen-reader mode's (reader/reader.tcss) comes last, over all of them."""

from __future__ import annotations

from pathlib import Path, PurePath

HERE = Path(__file__).resolve().parent

# Typed as Textual's CSS_PATH takes a list.
READER: PurePath = HERE / "reader" / "reader.tcss"
STYLESHEETS: list[str | PurePath] = [HERE / "app.tcss", HERE / "screens.tcss", READER]
SERVED_STYLESHEETS: list[str | PurePath] = [*STYLESHEETS[:-1], HERE / "served.tcss", READER]
