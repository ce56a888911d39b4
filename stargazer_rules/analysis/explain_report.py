"""Counterfactual play for a designer: the terminal table and explain.html of explain.json.

Both read only the document ``analysis.counterfactual.explain_document`` makes (the figures of
``schemas/explain.schema.json``), so the table, the page and the file always agree. Effects are
shown in percentage points of win share, arm minus run (positive: the seat wins more), each with
its interval and, while it covers 0, the paired games needed to decide it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from stargazer_rules.analysis.brief import Brief, bots_in_words, lineup_text, said_once
from stargazer_rules.analysis.labels import number, points
from stargazer_rules.analysis.report import esc, page, table
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets import outputfiles

__all__ = ["EXPLAIN_PAGE", "effect_text", "explain_brief", "picker_vp_text", "render_explain", "write_explain_page"]

#: The page in the output folder.
EXPLAIN_PAGE = "explain.html"

_CREW_HEADERS = ("crew", "picker advantage", "forced effect", "games to decide", "taken in", "flag",
                 "pickers' VP against the others")
_CARD_HEADERS = ("card left out", "seat changes (points)", "games to decide", "targets without it", "verdict without it")
_SEAT_HEADERS = ("card left out", "seat", "change of win share", "games to decide")


def effect_text(effect: Mapping[str, Any] | None) -> str:
    """``+4.2 [+1.0, +7.4]`` in points, or ``n/a``."""
    if not effect or effect.get("effect") is None:
        return "n/a"
    return f"{points(effect['effect'], sign=True)} [{points(effect['low'], sign=True)}, {points(effect['high'], sign=True)}]"


def _advantage_text(advantage: Mapping[str, Any] | None) -> str:
    if not advantage or advantage.get("difference") is None:
        return "n/a"
    return f"{points(advantage['difference'], sign=True)} [{points(advantage['low'], sign=True)}, {points(advantage['high'], sign=True)}]"


def _needed(effect: Mapping[str, Any] | None) -> str:
    if not effect or effect.get("direction") is None:
        return "n/a"
    if effect["direction"] != "covers 0":
        return "decided"
    return number(effect["games_needed"]) if effect.get("games_needed") else "never"


def _name(doc: Mapping[str, Any], kind: str, card: str) -> str:
    found = doc.get("names", {}).get(kind, {}).get(card)
    return found["en"] if found else card


def _crew_cells(doc: Mapping[str, Any], row: Mapping[str, Any]) -> list[str]:
    forced = row["forced"]
    agreement = row["agreement"]
    return [
        _name(doc, "crew", row["crew"]),
        _advantage_text(row["picker_advantage"]),
        effect_text(forced),
        _needed(forced),
        f"{number(row['games_taken'])} of {number(forced['games'])}",
        agreement["flag"] or "",
        _sources_cell(row.get("picker_vp")),
    ]


#: Where VP come from, in the words of the brief and the page (``counterfactual.VP_SOURCES``).
SOURCE_WORDS = {"majority": "from majority", "bonus": "from the major-planet bonus", "play": "during play"}


def _sources_cell(vp: Mapping[str, Any] | None) -> str:
    """``majority +4.1, bonus +0.3, play -0.2`` (VP a seat, pickers minus the others)."""
    if not vp:
        return "n/a"
    return ", ".join(f"{source} {vp['difference'][source]:+.1f}" for source in SOURCE_WORDS)


def picker_vp_text(vp: Mapping[str, Any] | None, figure: bool = True) -> str | None:
    """``its pickers score 4.1 VP more from majority than the others``: the source of the
    largest difference of a crew's pickers' VP (explain.json's ``picker_vp``); None without one.
    Without ``figure`` the size is left to the page (a brief says each figure once)."""
    if not vp:
        return None
    source = vp["largest"]
    difference = vp["difference"][source]
    if round(abs(difference), 1) == 0:
        return "its pickers score about as many VP from each source as the others"
    size = f"{abs(difference):.1f} VP {'more' if difference > 0 else 'fewer'}" if figure else \
        f"{'more' if difference > 0 else 'fewer'} VP"
    return f"its pickers score {size} {SOURCE_WORDS[source]} than the others"


def _card_cells(doc: Mapping[str, Any], row: Mapping[str, Any]) -> list[str]:
    kind = "crew" if row["kind"] == "crew" else "planets"
    name = _name(doc, kind, row["card"])
    if row.get("why"):
        return [name, f"not played: {row['why']}", "", "", ""]
    seats = ", ".join(
        f"{seat['seat']}: {points(seat['effect'], sign=True)}{'*' if seat['direction'] != 'covers 0' else ''}"
        for seat in row["seats"]
    )
    counts = row["targets"]["counts"]
    targets = ", ".join(f"{count} {decision}" for decision, count in counts.items() if count)
    return [name, seats, _most_needed(row["seats"]), targets or "none compared", row["targets"]["decision"]]


def _most_needed(effects: list[Mapping[str, Any]]) -> str:
    """The most paired games any of ``effects`` needs to be decided: ``decided`` when none
    needs more, ``never`` when one would not be decided by any number."""
    open_ones = [effect for effect in effects if effect["direction"] == "covers 0"]
    if not open_ones:
        return "decided"
    if any(effect.get("games_needed") is None for effect in open_ones):
        return "never"
    return number(max(effect["games_needed"] for effect in open_ones))


def _setting(doc: Mapping[str, Any]) -> str:
    run = doc["run"]
    return (
        f"{run['ruleset']['name']} ({short_fingerprint(run['ruleset']['fingerprint'])}), {run['players']} players, "
        f"{'/'.join(run['lineup'])} ({run['engine']} engine), seed {run['seed']}: the run of {number(run['games'])} "
        f"games and {number(doc['arm_games'])} paired games in each arm"
    )


_READING = (
    "Forced effect: the change of one seat's win share (ties shared, R18) when that seat must take the crew "
    "whenever it is free, against the same seat in the run's game on the same deal (arm minus run). Picker "
    "advantage: the run's pickers' win share minus the others' (summary.json). A flag marks where the two "
    "disagree: 'picked by leaders' (pickers win more, taking it does not), 'picked by trailers' (pickers win "
    "less, taking it does not lose), 'underrated' (pickers win no more, taking it wins more). Pickers' VP: a "
    "picking seat's mean VP from Planet majority, the major-planet bonus and play, minus the other seats' of "
    "the same games: where the pickers' lead comes from. Left out: the run's deal seeds dealt without the card; each turn-order seat's change of win "
    "share (* where its interval excludes 0) and the design targets compared as `stargazer compare` compares "
    'two drafts. docs/simulation.md, "stargazer explain".'
)


def _worth(doc: Mapping[str, Any], row: Mapping[str, Any], figure: bool = True) -> str:
    """``A seat that takes Engineer whenever it is free wins 3.8 points more often`` and, where
    its pickers' win share says otherwise, why in words."""
    forced = row["forced"]
    size = points(abs(forced["effect"]))
    more = "more" if forced["effect"] > 0 else "less"
    sure = "" if forced["direction"] != "covers 0" else " (not yet sure)"
    text = f"A seat that takes {_name(doc, 'crew', row['crew'])} whenever it is free wins {size} points {more} often{sure}"
    if row["agreement"]["flag"]:
        text += f"; yet {row['agreement']['text']}: the players who choose it are {_WHO[row['agreement']['flag']]}"
        sources = picker_vp_text(row.get("picker_vp"), figure)
        if sources:
            text += f"; {sources}"
    return text + "."


#: Why a crew's pickers win otherwise than taking it does, by the flag of the disagreement.
_WHO = {
    "picked by leaders": "those already ahead, so the crew follows the winners rather than making them",
    "picked by trailers": "those already behind, so the crew follows the losers rather than making them",
    "underrated": "too few of those it would help, so the bots undervalue it",
}


def explain_brief(doc: Mapping[str, Any], *, rules: str | None = None, compared_lineup: str | None = None) -> Brief:
    """The brief of explain.json: the crew worth the most, the three largest effects (with why
    the picker advantage differs where it does), a card whose absence helps the targets, and how
    sure. ``rules`` is how the designer named the ruleset; ``compared_lineup`` the lineup
    ``compare`` plays by default, said when this run's differs (their figures then differ)."""
    run = doc["run"]
    shown_lineup = lineup_text(run["lineup"])
    title = f"{run['ruleset']['name']}, {run['players']} players, {bots_in_words(run['lineup'])}: what each card is worth"
    warnings = []
    if compared_lineup and shown_lineup != compared_lineup:
        warnings.append(f"these are {bots_in_words(run['lineup'])}; compare plays {bots_in_words([compared_lineup])} by "
                        f"default, so its figures differ: --bots {compared_lineup} plays as compare does")
    crews = sorted((row for row in doc["crew"] if row["forced"].get("effect") is not None),
                   key=lambda row: (row["forced"]["direction"] == "covers 0", -abs(row["forced"]["effect"])))
    if crews and crews[0]["forced"]["direction"] != "covers 0":
        best = crews[0]
        word = "the most" if best["forced"]["effect"] > 0 else "the least"
        answer = f"{_name(doc, 'crew', best['crew'])} is worth {word} of the crews explained."
    elif crews:
        answer = "no crew is yet worth more or less than the others at these games."
    else:
        answer = "no crew was explained."
    answer = answer[0].upper() + answer[1:]
    helps = [row for row in doc["left_out"] if not row.get("why") and row["targets"]["decision"] == "better"]
    rules = rules or run["ruleset"]["name"]
    steps = []
    if helps:
        card = helps[0]
        name = _name(doc, "crew" if card["kind"] == "crew" else "planets", card["card"])
        steps.append((f"Without {name} the game does better on your targets: try a draft without it.",
                      f"stargazer new-draft draft-without-{card['card']} --from {rules}"))
    elif crews and crews[0]["forced"]["direction"] != "covers 0":
        steps.append((f"Try other values for {_name(doc, 'crew', crews[0]['crew'])}:",
                      f"stargazer tune {rules} --players {run['players']} --bots {shown_lineup}"))
    open_ones = [row["forced"] for row in crews if row["forced"]["direction"] == "covers 0" and row["forced"].get("games_needed")]
    replays = "its games" if doc["arm_games"] == run["games"] else f"its first {number(doc['arm_games'])} games"
    sure = f"{number(run['games'])} games, and each card's replays of {replays} dealt alike."
    if open_ones:
        fewest = min(open_ones, key=lambda forced: forced["games_needed"])
        who = next(row for row in crews if row["forced"] is fewest)
        sure += (f" More games would decide {_name(doc, 'crew', who['crew'])}: about "
                 f"{number(fewest['games_needed'])} games (--games).")
    most: list[str] = []
    for row in crews[:3]:
        sentence = _worth(doc, row)
        if said_once(" ".join([*most, sentence])):  # a VP figure that repeats one already said
            sentence = _worth(doc, row, figure=False)
        most.append(sentence)
    return Brief(title=title, answer=answer, most=most, next_steps=steps,
                 sure=sure, warnings=warnings, most_heading="What matters most",
                 nothing_next="nothing stands out yet: more games first (below)")


def render_explain(doc: Mapping[str, Any]) -> str:
    """explain.html as text: one self-contained page."""
    run = doc["run"]
    title = f"Stargazer counterfactual play: {run['ruleset']['name']}, {run['players']} players"
    crew_rows = [[esc(cell) for cell in _crew_cells(doc, row)] for row in doc["crew"]]
    card_rows = [[esc(cell) for cell in _card_cells(doc, row)] for row in doc["left_out"]]
    kind = {"crew": "crew", "planet": "planets"}
    seat_rows = [
        [esc(_name(doc, kind[row["kind"]], row["card"])), str(seat["seat"]), esc(effect_text(seat)), esc(_needed(seat))]
        for row in doc["left_out"] if not row.get("why") for seat in row["seats"]
    ]
    verdicts = "".join(
        f"<li>{esc(_name(doc, kind[row['kind']], row['card']))}: {esc(row['targets']['text'])}</li>"
        for row in doc["left_out"] if not row.get("why")
    )
    flagged = "".join(
        f"<li>{esc(_name(doc, 'crew', row['crew']))}: <strong>{esc(row['agreement']['flag'])}</strong>: "
        f"{esc(row['agreement']['text'])}{esc('; ' + picker_vp_text(row.get('picker_vp')) if row.get('picker_vp') else '')}.</li>"
        for row in doc["crew"] if row["agreement"]["flag"]
    )
    body = (
        f"<h1>{esc(title)}</h1>\n<p>{esc(_setting(doc))}</p>\n"
        + (f"<ul>{flagged}</ul>\n" if flagged else "<p>The forced effect and the picker advantage agree on every crew.</p>\n")
        + "<h2>Crew: forced effect beside the picker advantage</h2>\n"
        + table(list(_CREW_HEADERS), crew_rows, text_columns=1)
        + "<h2>Cards left out of the deal</h2>\n"
        + table(list(_CARD_HEADERS), card_rows, text_columns=2)
        + "<h3>Each seat without the card</h3>\n"
        + table(list(_SEAT_HEADERS), seat_rows, text_columns=1)
        + f"<h3>The targets without the card (the run as A, the arm as B)</h3>\n<ul>{verdicts}</ul>\n"
        + f'<p class="note">{esc(_READING)} Every figure here is also in explain.json beside this file.</p>'
    )
    return page(title, body)


def write_explain_page(doc: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``out_dir/explain.html``; its path."""
    path = Path(out_dir) / EXPLAIN_PAGE
    outputfiles.output_folder(path.parent)
    outputfiles.write_text(path, render_explain(doc))
    return path
