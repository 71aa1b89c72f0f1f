"""Terms without a field (`search=pacemaker+lead`): words in any value of a record, one pass per record.

A search's field-less terms that sit together (`pacemaker lead`, `pacemaker AND "power supply"`) become one SQL
predicate that reads each record's text once. A cheap test first: the lower-cased JSON text must contain a word
the terms need (one regular expression for all of them); only the records that pass are matched word by word.

A word matches as `sql.Translator._text` splits values into words (Unicode letters, digits and `_`, with `.` and
`'` joining two of them): the regular expressions below find a word only where such a split would start and end
it, and never inside a key (`"brand_name":`, which the words of values exclude) nor an escape's letter (`\\n`
in the JSON text is a line break, as in the value). A phrase's words follow one another inside one value.
Wildcards (`pace*`) split the record's values into words and test each.
"""

from __future__ import annotations

import re
from typing import Callable, TypeGuard

from ..schema.openfda import WORD_SQL
from .query import And, Node, Not, Or, Term, leaves, tokens

__all__ = ["any_only", "any_field"]

_W = r"\pL\pN_"  # RE2: a word character
_ESC = r"\\[^u]"  # a JSON escape (`\n`, `\"`): no word character
_START = rf"(?:^|[^{_W}.'\\]|[^{_W}][.']|^[.']|{_ESC})"  # what may precede a word's first character
_END = rf"(?:$|[^{_W}.'\"]|\"(?:$|[^:])|[.'](?:$|[^{_W}]))"  # what may follow its last (`":` ends a key)
_UNIT = rf"(?:[^{_W}\"\\]|{_ESC})"  # a non-word character inside one value
_GAP = rf"(?:(?:[^{_W}.'\"\\]|{_ESC}){_UNIT}*|[.']{_UNIT}+)"  # between two words (one `.` or `'` joins them)
_NOT_WORDS = "'\"[a-z0-9_@]+\":|\\[^u]'"  # keys and escapes, as SQL text


def any_only(node: Node) -> bool:
    """Whether every term of the tree is a term without a field (the tree reads just the record's text)."""
    return all(isinstance(leaf, Term) and leaf.field is None for leaf in leaves(node))


def any_field(node: Node, bind: Callable[[object], str], record: str = "t.record") -> str:
    """The SQL predicate of a tree of field-less terms over one record (`record`, a JSON column)."""
    body = _Unit(bind).sql(node)
    if any(isinstance(leaf, Term) and leaf.wildcard for leaf in leaves(node)):  # the values' words, split once
        words = f"regexp_extract_all(regexp_replace(anytext, {_NOT_WORDS}, ' ', 'g'), '{WORD_SQL}')"
        body = f"list_transform([{words}], lambda anywords: {body})[1]"
    need = _needles(node)
    if need:
        pre = bind("|".join(re.escape(n) for n in sorted(need)))
        body = f"CASE WHEN regexp_matches(anytext, {pre}) THEN {body} ELSE FALSE END"
    return f"coalesce(list_transform([lower(CAST({record} AS VARCHAR))], lambda anytext: {body})[1], FALSE)"


def _needles(node: Node) -> set[str] | None:
    """Texts one of which the lower-cased record must contain for the tree to match (None: no such set)."""
    if isinstance(node, Term):
        if node.wildcard:
            parts = [p for p in node.value.lower().split("*") if p]
            return {max(parts, key=len)} if parts else None
        words = tokens(node.value)
        return ({max(words, key=len)} if node.phrase else set(words)) if words else set()
    if isinstance(node, Or):
        out: set[str] = set()
        for child in node.children:
            need = _needles(child)
            if need is None:
                return None
            out |= need
        return out
    if isinstance(node, And):
        sets = [s for s in map(_needles, node.children) if s is not None]
        return min(sets, key=len) if sets else None
    return None


class _Unit:
    """The tree over `anytext` (the record's lower-cased JSON text), each regular expression a bound parameter."""

    def __init__(self, bind: Callable[[object], str]) -> None:
        self.bind = bind

    def sql(self, node: Node) -> str:
        if isinstance(node, Not):
            return f"(NOT {self.sql(node.child)})"
        if isinstance(node, Term):
            return self._term(node)
        assert isinstance(node, (And, Or)), node  # any_only trees hold only terms, NOT, AND and OR
        words = [w for c in node.children if _plain(c) for w in tokens(c.value)] if isinstance(node, Or) else []
        parts = [self._match(words)] if words else []
        parts += [self.sql(c) for c in node.children if not (words and _plain(c))]
        return "(" + (" OR " if isinstance(node, Or) else " AND ").join(parts) + ")"

    def _term(self, node: Term) -> str:
        if node.wildcard:
            return self._wildcard(node.value.lower())
        words = tokens(node.value)
        if not words:
            return "FALSE"
        if node.phrase:
            return f"regexp_matches(anytext, {self.bind(_START + _GAP.join(map(re.escape, words)) + _END)})"
        return self._match(words)

    def _match(self, words: list[str]) -> str:
        """Any of these words."""
        alts = "|".join(re.escape(w) for w in dict.fromkeys(words))
        return f"regexp_matches(anytext, {self.bind(_START + '(?:' + alts + ')' + _END)})"

    def _wildcard(self, pattern: str) -> str:
        """`pace*`, `*maker`, `p*r`: a word of the values (`anywords`) that the pattern matches whole."""
        parts = pattern.split("*")
        if not any(parts):
            return "(len(anywords) > 0)"
        rx = self.bind("^" + ".*".join(re.escape(p) for p in parts) + "$")
        return f"(len(list_filter(anywords, lambda w: regexp_full_match(w, {rx}))) > 0)"


def _plain(node: Node) -> TypeGuard[Term]:
    """A term of bare words (no phrase, no wildcard): any of its words."""
    return isinstance(node, Term) and not node.phrase and not node.wildcard and bool(tokens(node.value))
