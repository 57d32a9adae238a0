#!/usr/bin/env bash
# The quick checks before a push (seconds, not the suite): lint, the import layers and
# the type checker (mypy strict on c4tui/, as CI runs it; its cache makes a rerun ~1 s).
set -euo pipefail
cd "$(dirname "$0")/.."
uv run ruff check c4tui tests
uv run lint-imports
uv run mypy
