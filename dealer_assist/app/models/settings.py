"""The app's remembered settings: last table profile, source, house rules preset, stakes, supervisor PIN.

Stored as JSON in the platformdirs user config dir. A broken or unreadable file never crashes the
app: the defaults are used, the broken file is kept beside as `settings.json.broken`, and the
message says what was wrong so the window can show it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.store.text import check_name

APP_NAME = "dealer-assist"
ENV_CONFIG_DIR = "DEALER_ASSIST_CONFIG_DIR"
ENV_DATA_DIR = "DEALER_ASSIST_DATA_DIR"
MODES = ("live", "review", "training", "calibration")
SOURCE_KINDS = ("simulated", "camera", "stream", "file")
PRESETS = (
    "badugi-limit",
    "badugi-pot-limit",
    "badugi-no-limit",
    "badacey-no-limit-single",
    "badacey-pot-limit-double",
    "badacey-limit-triple",
)


def config_dir() -> Path:
    """Where settings live: $DEALER_ASSIST_CONFIG_DIR, else the platform's user config dir."""
    override = os.environ.get(ENV_CONFIG_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """Where trainee records live: $DEALER_ASSIST_DATA_DIR, else the platform's user data dir."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_settings_path() -> Path:
    return config_dir() / "settings.json"


@dataclass(frozen=True, slots=True)
class Settings:
    """What the app remembers between runs."""

    table_profile: str = "oval-6"
    source_kind: str = "simulated"
    source: str = ""
    house_preset: str = "badugi-limit"
    small_blind: int = 5
    big_blind: int = 10
    supervisor_pin: str = "0000"
    trainee: str = "trainee"
    mode: str = "live"
    font_scale: float = 1.0
    seats: str = ""  # seats in play at the camera's table ("1,2,5" or "1:400,2:250"); empty: every seat
    dealer: str = ""  # the dealer on the table: the hand log records each hand under the dealer's down

    @property
    def dealer_name(self) -> str:
        """The name the hand log records hands under ("dealer" when none is set)."""
        return self.dealer.strip() or "dealer"

    def seats_in_play(self, chips: int) -> dict[int, int]:
        """The seats in play with their chips (`chips` where none is given); empty for every seat of the table."""
        from dealer_assist.audit.table import parse_seats

        return parse_seats(self.seats, chips)

    @property
    def stakes(self) -> str:
        return f"{self.small_blind}/{self.big_blind}"


_DEFAULTS = Settings()


def _check(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    """Settings from a decoded dict: bad values fall back to their default, each with a note."""
    notes: list[str] = []
    values: dict[str, Any] = {}
    known = {f.name: f for f in fields(Settings)}
    for key, value in data.items():
        if key not in known:
            notes.append(f"unknown setting {key!r} ignored")
            continue
        default = getattr(_DEFAULTS, key)
        if isinstance(default, bool) or type(value) is bool:
            ok = type(value) is type(default)
        elif isinstance(default, float):
            ok = isinstance(value, int | float)
        else:
            ok = type(value) is type(default)
        if not ok:
            notes.append(f"setting {key!r} should be a {type(default).__name__}, got {value!r}; using {default!r}")
            continue
        values[key] = float(value) if isinstance(default, float) else value
    settings = replace(_DEFAULTS, **values)
    problems = []
    if settings.mode not in MODES:
        problems.append(("mode", f"mode {settings.mode!r} unknown (one of {', '.join(MODES)})"))
    if settings.source_kind not in SOURCE_KINDS:
        problems.append(("source_kind", f"source kind {settings.source_kind!r} unknown"))
    if settings.house_preset not in PRESETS:
        problems.append(("house_preset", f"house preset {settings.house_preset!r} unknown"))
    if not (0 < settings.small_blind <= settings.big_blind):
        problems.append(("small_blind", f"stakes {settings.stakes} invalid (need 0 < small blind <= big blind)"))
        problems.append(("big_blind", ""))
    if not (settings.supervisor_pin.isdigit() and 4 <= len(settings.supervisor_pin) <= 8):
        problems.append(("supervisor_pin", "supervisor PIN must be 4 to 8 digits"))
    if not (0.5 <= settings.font_scale <= 3.0):
        problems.append(("font_scale", f"font scale {settings.font_scale} out of range 0.5..3"))
    try:
        settings.seats_in_play(1)
    except DealerAssistError as exc:
        problems.append(("seats", str(exc)))
    try:
        check_name("dealer", settings.dealer)
    except DealerAssistError as exc:
        problems.append(("dealer", str(exc)))
    for key, note in problems:
        settings = replace(settings, **{key: getattr(_DEFAULTS, key)})
        if note:
            notes.append(f"{note}; using the default")
    return settings, notes


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The saved settings, or the defaults with a message saying why (never raises for a bad file).

    A missing file is not an error (first run): defaults, no message. A file that is not JSON, not
    an object, or unreadable is moved aside to `<name>.broken` so the next save does not destroy it.
    """
    path = path or default_settings_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), f"Could not read settings file {path}: {exc}. Using default settings."
    try:
        data = json.loads(raw.decode("utf-8"))      # UnicodeDecodeError is a ValueError: moved aside as well
        if not isinstance(data, dict):
            raise ValueError(f"expected a JSON object, found {type(data).__name__}")
    except ValueError as exc:
        backup = path.with_name(path.name + ".broken")
        try:
            path.replace(backup)
            kept = f" The broken file was kept as {backup}."
        except OSError:
            kept = ""
        return Settings(), f"Settings file {path} is broken ({exc}). Using default settings.{kept}"
    settings, notes = _check(data)
    if notes:
        return settings, f"Settings file {path}: " + "; ".join(notes) + "."
    return settings, None


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write atomically (temp file then rename), so a crash mid-write never leaves a half file."""
    path = path or default_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
