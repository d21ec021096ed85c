#!/usr/bin/env bash
# Installs everything, then runs the whole check: lint, types, and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install.sh
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
echo "== ruff"; .venv/bin/ruff check dealer_assist tests benchmarks
echo "== mypy"; .venv/bin/mypy
# pytest-timeout ends a hung test; this ends a hung run (collection, a worker's teardown) well inside CI's 90 minutes.
echo "== pytest"; timeout -k 60 3600 .venv/bin/python -m pytest -n 2 -q "$@"
