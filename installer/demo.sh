#!/usr/bin/env bash
# Installs everything, then runs the demo: Dealer Assist on its built-in simulated table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install.sh
exec .venv/bin/dealer-assist demo "$@"
