"""`dealer-assist log`: verify, list, show and export the hand log and check an export against it (read-only;
recording is the referee's), record the floor's corrections of ended hands, and its signing key."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from dealer_assist.audit.records import FlagKind
from dealer_assist.cards import parse_card
from dealer_assist.errors import DealerAssistError
from dealer_assist.store import LOG_ENV, ChainHead, HandLog, HandStory, HandSummary, default_log_path, resolve_log_path
from dealer_assist.store.export import EXPORT_FORMATS, ChainLinks, chain_links, export_csv, export_json
from dealer_assist.store.log_key import KEY_ENV, load_key, write_new_key
from dealer_assist.store.paths import path_problem, refuse_log_path
from dealer_assist.store.queries import MAX_ID
from dealer_assist.store.records import CorrectionKind, StoredCorrection, StoredEvent
from dealer_assist.store.render import render_story
from dealer_assist.store.text import printable
from dealer_assist.store.verify import writer_active

if TYPE_CHECKING:
    from dealer_assist.store.floor_award import FloorAward

F = TypeVar("F", bound=Callable[..., Any])


class _OneLineErrors(click.Group):
    """Bad arguments to a `log` subcommand become one `error: ...` line with exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise DealerAssistError(exc.format_message()) from None


def log_option(func: F) -> F:
    """The `--log PATH` option every subcommand takes."""
    return click.option(
        "--log", "log_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
        help=f"Hand log file. Default: ${LOG_ENV} if set, else {default_log_path()}.",
    )(func)


def _open(log_path: Path | None) -> HandLog:
    """The log named by --log, $DEALER_ASSIST_LOG or the default, read-only."""
    return HandLog.open_readonly(resolve_log_path(log_path))


def _row_id(text: str, what: str, listed_by: str) -> int:
    """A row id (hand, flag, event) from the command line, or a one-line error naming `what` and where ids are
    shown."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_ID:
        raise DealerAssistError(f"bad {what} {printable(text)!r}; give {'a hand id' if what == 'hand' else 'an id'} "
                                f"from 1 to {MAX_ID} as shown by `dealer-assist log {listed_by}`")
    return int(text)


def _hand_id(text: str) -> int:
    """A hand id from the command line, or a one-line error."""
    return _row_id(text, "hand", "list")


@click.group(cls=_OneLineErrors)
def log() -> None:
    """Review the hand log: verify its hash chain, list hands, tell a hand's story, referee it again, export it;
    record the floor's corrections; make and adopt the key that signs its chain head.

    The log is a SQLite file (browse it with Datasette); key frames are JPEG files in a folder
    beside it. These commands only read it, but for `correct`, which appends a correction row, and `sign`, which
    signs its anchor file.
    """


def key_file_option(func: F) -> F:
    """The `--key-file PATH` option of the commands that use the signing key."""
    return click.option(
        "--key-file", "key_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
        help=f"The log's signing key (made by `log key`). Default: ${KEY_ENV} if set.",
    )(func)


@log.command()
@log_option
@click.option("--head", "head_text", default=None, metavar="SEQ:HASH",
              help="A chain head recorded earlier (printed by this command); fail unless the log still holds it.")
@key_file_option
@click.option("--export", "export_path", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Also check FILE, a JSON or CSV export (`log export`), against the log: every row it holds must be "
                   "the log's row at its seq, with its hash and content, and each hand in it complete.")
def verify(log_path: Path | None, head_text: str | None, key_file: Path | None, export_path: Path | None) -> None:
    """Check every record against the hash chain (and, given the key, the chain head's signature); exit status 1
    and one line per problem if any.

    With --export FILE, also check an export handed on (to a commission, a dispute panel) against the log: a row
    edited after the export was made (an award amount, a card), one added to it or one of its hand's rows left out
    is one `export:` line naming the hand, record, id and seq and what differs."""
    from dealer_assist.store.export_check import read_export, verify_export  # only for --export

    expected = ChainHead.parse(head_text) if head_text else None
    key = load_key(key_file)
    export = read_export(export_path) if export_path is not None else None   # bad input before the log is read
    with _open(log_path) as hand_log:
        if export is None:
            report, check = hand_log.verify(expected_head=expected, key=key), None
        else:
            report, check = verify_export(hand_log.conn, hand_log.path, export, expected_head=expected, key=key)
    for problem in (*report.problems, *(check.problems if check else ())):
        click.echo(str(problem))
    if report.incomplete_hands:
        ids = ", ".join(str(h) for h in report.incomplete_hands)
        click.echo(f"note: hands left incomplete when the recorder stopped: {ids}")
    if report.signature == "not checked":
        click.echo(f"note: the chain head is signed; give --key-file (or ${KEY_ENV}) to check the signature")
    signed = "; the key's signature of it checks" if report.signature == "verified" else ""
    if check is not None:
        held = f"{check.hands} hand(s), {check.rows} row(s)"
        log_part = (f"{len(report.problems)} problem(s) in the log ({report.records} records)" if not report.ok
                    else f"the log itself verifies ({report.records} records)")
        if not (report.ok and check.ok):
            export_part = (f"{len(check.problems)} problem(s) in the export {check.path} ({held})" if not check.ok
                           else f"the export {check.path} matches the log ({held})")
            click.echo(printable(f"FAILED: {export_part}; {log_part}"), err=True)
            sys.exit(1)
        click.echo(printable(f"ok: the export {check.path} matches the log: {held}, each the log's row at its seq "
                             f"with its hash; {report.records} records, {report.snapshots} snapshot(s) checked; "
                             f"chain head {report.head}{signed}"))
        return
    if not report.ok:
        click.echo(f"FAILED: {len(report.problems)} problem(s) in {report.records} records", err=True)
        sys.exit(1)
    click.echo(f"ok: {report.records} records, {report.snapshots} snapshot(s) checked; chain head {report.head}"
               f"{signed}")


@log.command()
@click.argument("key_path", metavar="KEY_FILE", type=click.Path(dir_okay=False, path_type=Path))
def key(key_path: Path) -> None:
    """Make a new signing key in KEY_FILE (readable by its owner only; never overwritten).

    Recording with DEALER_ASSIST_LOG_KEY_FILE set to it signs the chain head at every write, so a history
    rewritten together with its anchor fails `log verify --key-file`. Keep a copy where whoever could rewrite the
    log cannot read it."""
    write_new_key(key_path)
    click.echo(f"key written to {key_path}; record with {KEY_ENV}={key_path}, and keep a copy off this machine")


@log.command()
@log_option
@key_file_option
def sign(log_path: Path | None, key_file: Path | None) -> None:
    """Adopt the signing key for an existing unsigned log: check its whole chain, then sign its head."""
    key = load_key(key_file)
    if key is None:
        raise DealerAssistError(f"no key: give --key-file KEY_FILE or set {KEY_ENV} (make one with `log key`)")
    path = resolve_log_path(log_path)
    if not path.is_file():
        raise DealerAssistError(f"no hand log at {path}")
    with HandLog.open(path, key=key, adopt_key=True) as hand_log:
        head = hand_log.head
    click.echo(f"signed: chain head {head} of {path}")


@log.command("list")
@log_option
@click.option("--table", default=None, help="Only hands at this table (its name).")
@click.option("--date", default=None, metavar="YYYY-MM-DD", help="Only hands started on this (local) date.")
@click.option("--dealer", default=None, help="Only hands dealt by this dealer.")
@click.option("--seat", default=None, metavar="N", help="Only hands in which seat N was dealt in.")
@click.option("--flag", default=None, type=click.Choice([k.value for k in FlagKind]), metavar="KIND",
              help="Only hands with a flag of this kind (e.g. card_exposed).")
@click.option("--limit", default=None, metavar="N", help="At most N hands.")
@click.option("--unawarded", is_flag=True,
              help="Only hands that ended with no award, neither the referee's nor the floor's, neither a misdeal "
                   "nor voided by the floor: the ones the floor still has to settle (`log correct --shown`).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand instead of a table line.")
def list_(log_path: Path | None, table: str | None, date: str | None, dealer: str | None, seat: str | None,
          flag: str | None, limit: str | None, unawarded: bool, as_json: bool) -> None:
    """List the hands that match every filter given, oldest first."""
    seat_n = _number("--seat", seat)
    limit_n = _number("--limit", limit)
    with _open(log_path) as hand_log:
        hands = hand_log.list_hands(table=table, date=date, dealer=dealer, seat=seat_n, flag=flag, limit=limit_n,
                                    unawarded=unawarded)
        unended = "in progress" if writer_active(hand_log.path) else "not ended (recorder stopped)"
    for h in hands:
        if as_json:
            click.echo(json.dumps(asdict(h)))
            continue
        seats = ",".join(str(s) for s in h.seats)
        click.echo(printable(f"{h.id:>8}  {h.started_at[:19].replace('T', ' ')}  {h.table}  #{h.number}  "
                             f"dealer {h.dealer}  seats {seats}  {h.status or unended}  flags {h.flags}"
                             f"{_award_text(h)}"))
    if not hands and not as_json:
        click.echo("no hands match", err=True)


def _award_text(hand: HandSummary) -> str:
    """"  pot 64: seat 2 64" (split: "seat 1 23, seat 2 22"); empty for a hand with no award."""
    if hand.pot is None:
        return ""
    shares = ", ".join(f"seat {seat} {chips}" for seat, chips in hand.won.items())
    by = " (floor)" if hand.floor_award else ""
    return f"  pot {hand.pot}{by}: {shares}" if shares else f"  pot {hand.pot}{by}"


def _number(option: str, text: str | None) -> int | None:
    """A whole-number option, or a one-line error naming it."""
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:
        raise DealerAssistError(f"bad {option} {printable(text)!r}; expected a whole number from 0 to {MAX_ID}")
    return int(text)


@log.command()
@log_option
@click.argument("hand")
def show(log_path: Path | None, hand: str) -> None:
    """Tell HAND's whole story: every card dealt, action, flag, correction, and the award and why."""
    with _open(log_path) as hand_log:
        story = hand_log.story(_hand_id(hand))
        click.echo(render_story(story, recorder_active=writer_active(hand_log.path)))


_ONE_CARD_EVENTS = ("dealt", "exposed", "replaced")
"""Event kinds that read one card: the ones a misread-card correction can name the true card of."""


@log.command()
@log_option
@key_file_option
@click.argument("hand")
@click.option("--by", "by", required=True, help="Who made the ruling: the floor person's name or badge.")
@click.option("--reason", required=True, help="Why (with --note, the note itself).")
@click.option("--void", "void", is_flag=True, help="Void the hand.")
@click.option("--accept-flag", "accept", default=None, metavar="FLAG_ID",
              help="Accept the flag FLAG_ID (as numbered by `log show`): it stands.")
@click.option("--dismiss-flag", "dismiss", default=None, metavar="FLAG_ID",
              help="Dismiss the flag FLAG_ID (as numbered by `log show`): it does not stand.")
@click.option("--misread", default=None, metavar="EVENT_ID:CARD",
              help="Event EVENT_ID (as numbered by `log show`) read the wrong card; CARD is the one it was, e.g. "
                   "12:Kd.")
@click.option("--note", is_flag=True, help="Add a note to the hand (the --reason text).")
@click.option("--shown", "shown", multiple=True, metavar="SEAT:CARDS",
              help='Seat SEAT showed CARDS, read by the floor (the camera did not read it), e.g. "3:Ah 2c 3d 4s"; '
                   "give it once for each hand read.")
@click.option("--mucked", "mucked", multiple=True, metavar="SEAT",
              help="Seat SEAT mucked at the showdown, seen by the floor (the camera took it for something else); "
                   "with --shown or alone, once for each seat.")
@click.option("--not-seen", "not_seen", multiple=True, metavar="EVENT_ID",
              help="Event EVENT_ID (as numbered by `log show`) did not happen: the camera took a glare for a card, "
                   "say; with --shown and --mucked or alone, once for each event.")
@click.option("--missed", "missed", multiple=True, metavar="KIND:SEAT:SECONDS[:COUNT|CARD]",
              help='An event the camera did not report, at its time in the recording: "replaced:3:27.9" (a '
                   'replacement pitched under the dealer\'s hand, say), "dealt:2:5.5", "discarded:5:16.2:2", '
                   '"folded:4:12.0", "exposed:2:3.1:Qs"; a card dealt or replaced may name its card. Once for each '
                   "event, with the other reads or alone.")
def correct(log_path: Path | None, key_file: Path | None, hand: str, by: str, reason: str, void: bool,
            accept: str | None, dismiss: str | None, misread: str | None, note: bool, shown: tuple[str, ...],
            mucked: tuple[str, ...], not_seen: tuple[str, ...], missed: tuple[str, ...]) -> None:
    """Record the floor's correction of HAND, an ended hand: exactly one of --void, --accept-flag,
    --dismiss-flag, --misread, --note, or the floor's reading of the table (--shown, --mucked, --not-seen and
    --missed, each repeatable).

    The correction is a new row in the hash chain pointing at what it corrects; what was recorded is never
    changed. After --misread, --shown, --mucked, --not-seen or --missed the hand is refereed again with every such
    correction of the floor's (a missed event at its own time), and the award that makes, when it differs from the
    hand's, is recorded as the floor's and printed. Needs the log free of a recorder (while the app records,
    Review's Floor read… does it), and a signed log's key (--key-file or $DEALER_ASSIST_LOG_KEY_FILE)."""
    reads = bool(shown or mucked or not_seen or missed)
    chosen = [name for name, given in (("--void", void), ("--accept-flag", accept is not None),
                                       ("--dismiss-flag", dismiss is not None), ("--misread", misread is not None),
                                       ("--note", note), ("--shown/--mucked/--not-seen/--missed", reads)) if given]
    if len(chosen) != 1:
        got = f" (got {' and '.join(chosen)})" if chosen else ""
        raise DealerAssistError("give exactly one of --void, --accept-flag FLAG_ID, --dismiss-flag FLAG_ID, "
                                "--misread EVENT_ID:CARD, --note, or the floor's reads (--shown SEAT:CARDS, --mucked "
                                f"SEAT, --not-seen EVENT_ID, --missed KIND:SEAT:SECONDS){got}")
    if reads:
        _correct_reads(log_path, key_file, hand, by, reason, shown, mucked, not_seen, missed)
        return
    if not reason.strip():
        raise DealerAssistError("--reason is empty; say why the floor made this correction")
    if not by.strip():
        raise DealerAssistError("--by is empty; give the floor person's name or badge")
    hand_id = _hand_id(hand)
    kind: CorrectionKind
    target: int | None = None
    card = None
    if void:
        kind = "void_hand"
    elif note:
        kind = "note"
    elif misread is not None:
        kind = "misread_card"
        event_text, sep, card_text = misread.partition(":")
        if not sep:
            raise DealerAssistError(f"bad --misread {printable(misread)!r}; expected EVENT_ID:CARD, e.g. 12:Kd")
        target = _row_id(event_text, "--misread event id", "show")
        card = parse_card(card_text)
    else:
        kind = "accept_flag" if accept is not None else "dismiss_flag"
        target = _row_id(accept if accept is not None else dismiss or "", f"--{kind.replace('_', '-')} id", "show")
    path = resolve_log_path(log_path)
    if not path.is_file():
        raise DealerAssistError(f"no hand log at {path}")
    key = load_key(key_file)
    with HandLog.open(path, key=key) as hand_log:
        story = hand_log.story(hand_id)
        data: dict[str, str] = {}
        if kind == "void_hand" and any(isinstance(r, StoredCorrection) and r.kind == "void_hand"
                                       for r in story.records):
            raise DealerAssistError(f"hand {hand_id} is already voided; `dealer-assist log show {hand_id}` shows by "
                                    "whom")
        if card is not None and target is not None:
            data = _misread_data(story, target, str(card))
        ref = hand_log.record_correction(hand_id, kind, reason=reason, by=by, target_id=target, data=data)
        read = f"read {data['was']}; " if "was" in data else ""
        what = {"void_hand": "voids the hand", "note": "a note on the hand",
                "accept_flag": f"accepts flag #{target}", "dismiss_flag": f"dismisses flag #{target}",
                "misread_card": f"event #{target} {read}the card was {card}"}[kind]
        click.echo(printable(f"recorded correction #{ref.id} ({kind}) on hand {hand_id}: {what}, by {by}"))
        if kind == "misread_card":
            _award_again(hand_log, hand_id, by)


def _correct_reads(log_path: Path | None, key_file: Path | None, hand: str, by: str, reason: str,
                   shown: tuple[str, ...], mucked: tuple[str, ...], not_seen: tuple[str, ...],
                   missed: tuple[str, ...] = ()) -> None:
    """Record each hand the floor read (`--shown SEAT:CARDS`), each muck it saw (`--mucked SEAT`), each event it
    found did not happen (`--not-seen EVENT_ID`) and each one the camera missed (`--missed KIND:SEAT:SECONDS`), all
    checked before any is written, then award again."""
    from dealer_assist.store.floor_award import (  # the referee: only here
        FloorReads,
        parse_missed,
        parse_shown,
        record_floor_reads,
    )

    hand_id = _hand_id(hand)
    seats = [_number("--mucked seat", text.strip()) for text in mucked]
    reads = FloorReads(tuple(parse_shown(text, "--shown") for text in shown), tuple(s for s in seats if s is not None),
                       tuple(_row_id(text, "--not-seen event id", "show") for text in not_seen),
                       tuple(parse_missed(text, "--missed") for text in missed))
    reads.check()
    path = resolve_log_path(log_path)
    if not path.is_file():
        raise DealerAssistError(f"no hand log at {path}")
    with HandLog.open(path, key=load_key(key_file)) as hand_log:
        lines, result = record_floor_reads(hand_log, hand_id, reads, by=by, reason=reason)
    for line in lines:
        click.echo(printable(line))
    _echo_award(result, hand_id, by)


def _award_again(hand_log: HandLog, hand_id: int, by: str) -> None:
    """Referee the hand again with the floor's corrections; record and print the award it makes (`floor_award`)."""
    from dealer_assist.store.floor_award import record_floor_award  # the referee: only for this command

    _echo_award(record_floor_award(hand_log, hand_id, by=by), hand_id, by)


def _echo_award(result: FloorAward, hand_id: int, by: str) -> None:
    """The floor's award as `log correct` prints it: recorded, standing as it was, or none and why."""
    if result.award is None:
        click.echo(printable(f"no award: {'; '.join(result.lines)}"))
        return
    if result.recorded is None:
        click.echo("the award stands as recorded:")
    else:
        click.echo(printable(f"recorded correction #{result.recorded} (award) on hand {hand_id}: the floor's award, "
                             f"by {by}:"))
    for line in result.lines:
        click.echo(printable(f"  {line}"))


def _misread_data(story: HandStory, event_id: int, card: str) -> dict[str, str]:
    """A misread correction's data, the true card and the card the event read, once the event is one that reads a
    single card other than this one (an event of another hand is left to the store, which names it)."""
    event = next((r.event for r in story.records if isinstance(r, StoredEvent) and r.id == event_id), None)
    if event is None:
        return {"card": card}
    where = f"event #{event_id} of hand {story.hand.id}"
    if event.kind not in _ONE_CARD_EVENTS:
        raise DealerAssistError(f"{where} is a {event.kind} event, which reads no single card; a misread names the "
                                "event of a dealt, exposed or replaced card")
    was = event.to_dict().get("card")
    if was is not None and str(was) == card:
        raise DealerAssistError(f"{where} already reads {card}; nothing to correct")
    return {"card": card} | ({"was": str(was)} if was is not None else {})


@log.command()
@log_option
@click.argument("hand", required=False)
@click.option("--all", "all_hands", is_flag=True, help="Recheck every hand instead of one.")
def recheck(log_path: Path | None, hand: str | None, all_hands: bool) -> None:
    """Referee HAND (or --all hands) again from its recorded events and actions, under its recorded house rules,
    seats, button and camera mode, and compare the flags, award and end with the recorded ones; exit status 1
    and one line per difference if any. Hands still being recorded are skipped."""
    from dealer_assist.store.recheck import recheck as recheck_story  # the referee: only for this command

    if bool(hand) == all_hands:
        raise DealerAssistError("give either a HAND id or --all")
    differing = checked = unchecked = 0
    with _open(log_path) as hand_log:
        ids = hand_log.hand_ids() if all_hands else [_hand_id(hand or "")]
        for hand_id in ids:
            story = hand_log.story(hand_id)
            if story.end is None and all_hands:
                click.echo(f"hand {hand_id}: not ended yet; skipped")
                continue
            checked += 1
            try:
                result = recheck_story(story)
            except DealerAssistError as exc:
                click.echo(f"hand {hand_id}: cannot be refereed again: {exc}")
                unchecked += 1
                continue
            click.echo(printable(result.summary()))
            for line in result.differences:
                click.echo(printable(f"  {line}"))
            differing += not result.same
    if differing or unchecked:
        problems = [f"{differing} of {checked} hand(s) differ from the record"] if differing else []
        problems += [f"{unchecked} could not be refereed again"] if unchecked else []
        click.echo(f"FAILED: {'; '.join(problems)}", err=True)
        sys.exit(1)
    if all_hands:
        click.echo(f"ok: {checked} hand(s) follow from their recorded events and actions")


@log.command()
@log_option
@click.argument("hand", required=False)
@click.option("--all", "all_hands", is_flag=True, help="Export every hand instead of one.")
@click.option("--format", "fmt", type=click.Choice(EXPORT_FORMATS), default="json", show_default=True,
              help="json: the stored records, each with its row's prev and hash; csv: one line per record, its "
                   "row's hash last; phh: Poker Hand History text.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
def export(log_path: Path | None, hand: str | None, all_hands: bool, fmt: str, output: Path | None) -> None:
    """Export HAND (or --all hands) as JSON, CSV or PHH."""
    if bool(hand) == all_hands:
        raise DealerAssistError("give either a HAND id or --all")
    if output is not None:      # before anything is opened: an export over the log would destroy it
        refuse_log_path(resolve_log_path(log_path), output, "the export")
    with _open(log_path) as hand_log:
        ids = hand_log.hand_ids() if all_hands else [_hand_id(hand or "")]
        first = None if all_hands else hand_log.story(ids[0])   # no such hand: say so before -o is truncated

        def stories() -> Iterator[HandStory]:
            """Each hand's story, read as it is written out."""
            for hand_id in ids:
                yield first if first is not None else hand_log.story(hand_id)

        def links(story: HandStory) -> ChainLinks:
            """The stored `prev` and `hash` of the hand's rows, which the JSON and CSV carry."""
            return chain_links(hand_log.conn, story.hand.id)

        if fmt == "json":
            chunks = export_json(stories(), single=not all_hands, chain=links)
        elif fmt == "csv":
            chunks = export_csv(stories(), chain=links)
        else:
            from dealer_assist.store.phh import export_phh  # the rules engine: only for PHH

            chunks = export_phh(stories())
        if output is None:
            for chunk in chunks:
                click.echo(chunk, nl=False)
        else:
            try:
                with open(output, "w", encoding="utf-8", newline="") as fh:
                    for chunk in chunks:
                        fh.write(chunk)
            except OSError as exc:
                raise DealerAssistError(f"cannot write the export to {output}: {path_problem(output, exc)}") from None
