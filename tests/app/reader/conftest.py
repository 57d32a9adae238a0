"""The app tests' fixtures (a private config directory, `make_app`) for the reader's tests."""

from tests.app.conftest import make_app, private_config

__all__ = ["make_app", "private_config"]
