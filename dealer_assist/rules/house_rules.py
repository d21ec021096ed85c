"""A table's house rules: game, betting structure, stakes and every house option of HOUSE_RULES.md.

Each option names the seed (or the major-room practice) it comes from; a table's TOML file picks
values, and every flag or award the tool shows can name the option it applied.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import tomli_w

from dealer_assist.errors import DealerAssistError

Game = Literal["badugi", "badacey"]
Betting = Literal["fixed_limit", "pot_limit", "no_limit"]
DrawProcedure = Literal["sequential", "discard_then_replace"]
OddChipRule = Literal["clockwise_from_button", "high_card_by_suit"]
ShortAllInRule = Literal["full_raise", "half_bet", "pokerkit"]

GAMES: tuple[str, ...] = ("badugi", "badacey")
BETTINGS: tuple[str, ...] = ("fixed_limit", "pot_limit", "no_limit")
DRAW_PROCEDURES: tuple[str, ...] = ("sequential", "discard_then_replace")
ODD_CHIP_RULES: tuple[str, ...] = ("clockwise_from_button", "high_card_by_suit")
SHORT_ALL_IN_RULES: tuple[str, ...] = ("full_raise", "half_bet", "pokerkit")
PRESETS: tuple[str, ...] = (
    "badugi-limit",
    "badugi-pot-limit",
    "badugi-no-limit",
    "badacey-no-limit-single",
    "badacey-pot-limit-double",
    "badacey-limit-triple",
)
DEFAULT_PRESET = "badugi-limit"


class HouseRulesError(DealerAssistError, ValueError):
    """A house-rules file or value that is not accepted; the message names the accepted keys or range."""


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Game, stakes and house options of one table; defaults are HOUSE_RULES.md's defaults."""

    game: Game = "badugi"
    """badugi (4 cards) or badacey (5 cards, A-5 low and Badugi split every pot; seed 004)."""
    betting: Betting = "fixed_limit"
    """fixed_limit (001 default), pot_limit or no_limit (003, 004)."""
    draws: int = 3
    """Draw rounds: Badugi 3 (001); Badacey 1, 2 or 3 (004)."""
    small_blind: int = 1
    """Small blind, first seat left of the button (001); 003: half the big blind, 004: may be larger."""
    big_blind: int = 2
    """Big blind, second seat left of the button (001)."""
    ante: int = 0
    """Ante every seat posts before the deal (004: optional)."""
    small_bet: int = 2
    """Fixed limit: bet size pre-draw and after the 1st draw, = big blind (001, 004)."""
    big_bet: int = 4
    """Fixed limit: bet size after the 2nd and 3rd draws, 2 x small bet (001, 004)."""
    chip_unit: int = 1
    """Smallest chip at the table; splits and odd chips are in these units (HOUSE_RULES "Pots")."""
    heads_up_button_small_blind: bool = True
    """Heads-up, the button posts the small blind, acts first pre-draw and last after (major rooms)."""
    uncapped_heads_up: bool = False
    """Fixed limit: no raise cap while only two seats are in the hand (major rooms; seeds silent)."""
    bets_per_round_cap: int = 4
    """Fixed limit: one bet and three raises per round (001, 004)."""
    blind_counts_as_bet: bool = True
    """Fixed limit cap: the big blind counts as the round's bet pre-draw (major rooms; PokerKit: off)."""
    short_all_in_rule: ShortAllInRule = "full_raise"
    """full_raise: an all-in short of a full raise does not reopen betting for seats that already
    acted (major rooms); half_bet (fixed limit; Robert's Rules): an all-in of half a bet or more is a full
    bet or raise, one of less may be completed; pokerkit: PokerKit's engine rule, for replaying and comparing."""
    draw_procedure: DrawProcedure = "sequential"
    """sequential: each seat discards then gets its cards (000, 002 D); discard_then_replace (004)."""
    burn_before_draw: bool = True
    """One card burned before each draw round's replacements (003)."""
    last_card_dealable: bool = True
    """The final stub card may complete a draw (004); off: it is shuffled in with the discards."""
    odd_chip_rule: OddChipRule = "clockwise_from_button"
    """Odd chip of a tied split: first tied winner clockwise from the button (004) or highest card by suit."""

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived -------------------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        """Cards each seat holds: 4 in Badugi, 5 in Badacey."""
        return 5 if self.game == "badacey" else 4

    @property
    def betting_rounds(self) -> int:
        """One round before the draw and one after each draw."""
        return self.draws + 1

    def bet_unit(self, round_index: int) -> int:
        """Fixed limit: the bet size of betting round `round_index` (0 = pre-draw); else the big blind."""
        if self.betting != "fixed_limit":
            return self.big_blind
        return self.big_bet if round_index >= 2 else self.small_bet

    def describe(self) -> str:
        """One line: "badugi fixed limit 1/2 (bets 2/4), 3 draws"."""
        text = f"{self.game} {self.betting.replace('_', ' ')} {self.small_blind}/{self.big_blind}"
        if self.betting == "fixed_limit":
            text += f" (bets {self.small_bet}/{self.big_bet})"
        if self.ante:
            text += f" ante {self.ante}"
        return text + f", {self.draws} draw{'s' if self.draws != 1 else ''}"

    # -- TOML ----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_toml(self) -> str:
        """The rules as TOML text that `from_toml` reads back to an equal object."""
        return tomli_w.dumps(self.to_dict())

    def with_options(self, **changes: Any) -> HouseRules:
        """A copy with some fields changed; unknown names get the same one-line error as TOML keys."""
        _check_keys(changes)
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, base: HouseRules | None = None) -> HouseRules:
        """Rules from a mapping; keys not given keep `base`'s values (defaults if none)."""
        _check_keys(data)
        for f in fields(cls):
            if f.name in data:
                _check_type(f.name, data[f.name])
        return replace(base or cls(), **data)

    @classmethod
    def from_toml(cls, source: str | Path) -> HouseRules:
        """Rules from a TOML file path or TOML text; a `preset = "name"` key starts from that preset."""
        text = _read_source(source)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise HouseRulesError(f"house rules are not valid TOML: {exc}") from None
        base = None
        if "preset" in data:
            base = cls.preset(str(data.pop("preset")))
        return cls.from_dict(data, base=base)

    @classmethod
    def preset(cls, name: str) -> HouseRules:
        """One of the presets shipped in `dealer_assist/rules/presets/`."""
        if name not in PRESETS:
            raise HouseRulesError(f"unknown preset {name!r}; accepted: {', '.join(PRESETS)}")
        text = resources.files("dealer_assist.rules.presets").joinpath(f"{name}.toml").read_text("utf-8")
        return cls.from_toml(text)


def _read_source(source: str | Path) -> str:
    """TOML text from a path, or the text itself."""
    if isinstance(source, Path):
        try:
            return source.read_text("utf-8")
        except OSError as exc:
            raise HouseRulesError(f"cannot read house rules file {source}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise HouseRulesError(f"house rules file {source} is not UTF-8 text; accepted: a TOML file of house "
                                  "options") from None
    if "\n" not in source and "=" not in source and source.endswith(".toml"):
        return _read_source(Path(source))
    return source


_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
_BOOL_FIELDS = frozenset(
    f.name for f in fields(HouseRules) if f.type in ("bool", bool)
)
_INT_FIELDS = frozenset(f.name for f in fields(HouseRules) if f.type in ("int", int))
_CHOICES: dict[str, tuple[str, ...]] = {
    "game": GAMES,
    "betting": BETTINGS,
    "draw_procedure": DRAW_PROCEDURES,
    "odd_chip_rule": ODD_CHIP_RULES,
    "short_all_in_rule": SHORT_ALL_IN_RULES,
}


def _check_keys(data: dict[str, Any]) -> None:
    unknown = sorted(set(data) - set(_FIELD_NAMES))
    if unknown:
        raise HouseRulesError(
            f"unknown house rules key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"accepted: {', '.join(_FIELD_NAMES)}"
        )


def _check_type(name: str, value: Any) -> None:
    if name in _BOOL_FIELDS and not isinstance(value, bool):
        raise HouseRulesError(f"house option {name} = {value!r} is not accepted; accepted: true or false")
    if name in _INT_FIELDS and (isinstance(value, bool) or not isinstance(value, int)):
        raise HouseRulesError(f"{name} = {value!r} is not accepted; accepted: a whole number of chips or rounds")
    if name in _CHOICES and value not in _CHOICES[name]:
        raise HouseRulesError(f"{name} = {value!r} is not accepted; accepted: {', '.join(_CHOICES[name])}")


def _validate(rules: HouseRules) -> None:
    """Range checks with one-line errors naming the accepted range."""
    for name in _FIELD_NAMES:
        _check_type(name, getattr(rules, name))
    low, high = (3, 3) if rules.game == "badugi" else (1, 3)
    if not low <= rules.draws <= high:
        accepted = "3" if rules.game == "badugi" else "1, 2 or 3"
        raise HouseRulesError(f"draws = {rules.draws} is not accepted for {rules.game}; accepted: {accepted}")
    if rules.chip_unit < 1:
        raise HouseRulesError(f"chip_unit = {rules.chip_unit} is not accepted; accepted: 1 or more")
    if rules.big_blind < 1:
        raise HouseRulesError(f"big_blind = {rules.big_blind} is not accepted; accepted: 1 or more")
    if not 0 <= rules.small_blind <= rules.big_blind:
        raise HouseRulesError(
            f"small_blind = {rules.small_blind} is not accepted; accepted: 0 to the big blind ({rules.big_blind})"
        )
    if rules.ante < 0:
        raise HouseRulesError(f"ante = {rules.ante} is not accepted; accepted: 0 or more")
    if rules.small_bet < 1 or rules.big_bet < rules.small_bet:
        raise HouseRulesError(
            f"small_bet = {rules.small_bet}, big_bet = {rules.big_bet} are not accepted; "
            "accepted: small_bet 1 or more and big_bet at least small_bet"
        )
    if rules.bets_per_round_cap < 1:
        raise HouseRulesError(
            f"bets_per_round_cap = {rules.bets_per_round_cap} is not accepted; accepted: 1 or more (001: 4)"
        )
    sized = ("small_blind", "big_blind", "ante") + (("small_bet", "big_bet") if rules.betting == "fixed_limit" else ())
    for name in sized:
        value = getattr(rules, name)
        if value % rules.chip_unit:
            raise HouseRulesError(
                f"{name} = {value} is not accepted with chip_unit = {rules.chip_unit}; "
                f"accepted: a multiple of {rules.chip_unit}"
            )
