"""Parse openFDA `search=` text (Elasticsearch query_string, as openFDA uses it) into a small syntax tree.

Grammar (OR is the default operator; AND binds tighter than OR; NOT and a leading `-`/`+` are unary):
  query   := or
  or      := and (("OR" | "||")? and)*          -- juxtaposition is OR
  and     := unary (("AND" | "&&") unary)*
  unary   := ("NOT" | "!" | "-") unary | "+" unary | primary
  primary := "(" query ")" | field ":" value | value
  value   := "(" values ")" | phrase | range | word
  range   := ("[" | "{") bound "TO" bound ("]" | "}")
`_exists_:f` and `_missing_:f` become Exists / Not(Exists). A bare value (no field) searches all fields.

Bounds (a search past them is a ParseError, the API's 400): at most MAX_DEPTH parentheses and NOTs nested, and at
most MAX_TERMS terms, counting each word of an unquoted term apart (`a-b` is two), as Lucene counts clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import MirrorError

__all__ = [
    "ParseError",
    "Term",
    "Range",
    "Exists",
    "Not",
    "And",
    "Or",
    "Node",
    "parse",
    "ALLOWED",
    "MAX_DEPTH",
    "MAX_TERMS",
    "leaves",
    "tokens",
]

# openFDA's whitelist: letters, digits, space and these; anything else is "Search not supported".
ALLOWED = re.compile(r"""^[\w\s@%/\\',.:()"\[\]{}\-+><=*]*$""", re.UNICODE)
MAX_DEPTH = 50  # parentheses and NOTs nested in one another
MAX_TERMS = 100  # terms (each word of an unquoted term) in one search
_PY_WORD = re.compile(r"[^\W]+(?:[.'][^\W]+)*")


def tokens(text: str) -> list[str]:
    """The lower-case words of a text, as the index would see them."""
    return [t.lower() for t in _PY_WORD.findall(text)]


class ParseError(MirrorError, ValueError):
    """Malformed search text; the message is what the API's 400 body says."""


@dataclass(frozen=True)
class Term:
    field: str | None  # None: any field
    value: str
    phrase: bool = False  # "quoted phrase"
    wildcard: bool = False  # contains * (prefix/glob)


@dataclass(frozen=True)
class Range:
    field: str
    low: str | None  # None for *
    high: str | None
    include_low: bool = True
    include_high: bool = True


@dataclass(frozen=True)
class Exists:
    field: str


@dataclass(frozen=True)
class Not:
    child: "Node"


@dataclass(frozen=True)
class And:
    children: tuple["Node", ...]


@dataclass(frozen=True)
class Or:
    children: tuple["Node", ...]


Node = Term | Range | Exists | Not | And | Or

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<phrase>"(?:[^"\\]|\\.)*")
  | (?P<punct>\(|\)|\[|\]|\{|\}|:)
  | (?P<word>(?:\\.|[^\s()\[\]{}:"])+)
""",
    re.VERBOSE,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m:
            raise ParseError(f"Search not supported: unbalanced quote near position {i}")
        i = m.end()
        kind = m.lastgroup
        assert kind is not None  # every alternative of _TOKEN is a named group
        if kind != "ws":
            out.append((kind, m.group(kind)))
    return out


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], max_depth: int) -> None:
        self.t, self.i = tokens, 0
        self.depth, self.max_depth = 0, max_depth

    def nest(self, parse, *args) -> Node:
        """`parse(*args)` one level deeper (a parenthesis, NOT or sign), refused past the depth bound."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise ParseError(
                f"Search not supported: parentheses and NOTs nested more than {self.max_depth} deep; "
                "write the search with fewer levels"
            )
        try:
            return parse(*args)
        finally:
            self.depth -= 1

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise ParseError("Search not supported: unexpected end of search")
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        if self.peek() is None:
            raise ParseError(f"Search not supported: unbalanced parentheses, expected {value!r} before the end")
        kind, v = self.take()
        if v != value:
            raise ParseError(f"Search not supported: expected {value!r}, found {v!r}")

    def at_word(self, *words: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == "word" and tok[1] in words

    def query(self) -> Node:
        parts = [self.and_()]
        while (tok := self.peek()) is not None and tok[1] != ")":
            if self.at_word("OR", "||"):
                self.take()
            parts.append(self.and_())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_(self) -> Node:
        parts = [self.unary()]
        while self.at_word("AND", "&&"):
            self.take()
            parts.append(self.unary())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self) -> Node:
        if self.at_word("NOT", "!"):
            self.take()
            return Not(self.nest(self.unary))
        tok = self.peek()
        if tok and tok[0] == "word" and tok[1][0] in "-+!" and len(tok[1]) > 1:
            sign = tok[1][0]
            self.t[self.i] = ("word", tok[1][1:])
            node = self.nest(self.unary)
            return Not(node) if sign in "-!" else node
        return self.primary()

    def primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise ParseError("Search not supported: unexpected end of search")
        if tok[1] == "(":
            self.take()
            node = self.nest(self.query)
            self.expect(")")
            return node
        if tok[0] == "word" and self.peek(1) == ("punct", ":"):
            field = _unescape(self.take()[1])
            self.take()
            return self.value(field)
        return self.value(None)

    def value(self, field: str | None) -> Node:
        kind, v = self.take()
        if field in ("_exists_", "_missing_"):
            if kind != "word":
                raise ParseError(f"Search not supported: {field} needs a field name")
            node = Exists(_unescape(v))
            return node if field == "_exists_" else Not(node)
        if v == "(":
            return self.nest(self._group, field)
        if v in ("[", "{"):
            return self.range(field, v == "[")
        if kind == "phrase":
            return Term(field, _unescape(v[1:-1]), phrase=True)
        if kind == "punct":
            raise ParseError(f"Search not supported: unexpected {v!r}")
        return Term(field, _unescape(v), wildcard="*" in v.replace("\\*", ""))

    def _group(self, field: str | None) -> Node:
        """`field:(a OR b AND c)`: the values after the opening parenthesis, through the closing one."""
        parts = [self._group_value(field)]
        while (tok := self.peek()) is not None and tok[1] != ")":
            if self.at_word("OR", "||", "AND", "&&"):
                op = self.take()[1]
                if op in ("AND", "&&"):
                    parts = [And((parts.pop(), self._group_value(field)))] if parts else parts
                    continue
            parts.append(self._group_value(field))
        self.expect(")")
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def _group_value(self, field: str | None) -> Node:
        if self.at_word("NOT", "!"):
            self.take()
            return Not(self.nest(self._group_value, field))
        return self.value(field)

    def range(self, field: str | None, include_low: bool) -> Node:
        if field is None:
            raise ParseError("Search not supported: a range needs a field")
        low = self.take()[1]
        if not self.at_word("TO"):
            raise ParseError("Search not supported: a range needs TO")
        self.take()
        high = self.take()[1]
        close = self.take()[1]
        if close not in ("]", "}"):
            raise ParseError(f"Search not supported: range not closed (found {close!r})")
        bound = lambda b: None if b == "*" else _unescape(b.strip('"'))  # noqa: E731
        return Range(field, bound(low), bound(high), include_low, close == "]")


def leaves(node: Node) -> list[Node]:
    """The terms, ranges and existence tests of a tree, left to right (no recursion: any depth)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (And, Or)):
            stack.extend(reversed(n.children))
        elif isinstance(n, Not):
            stack.append(n.child)
        else:
            out.append(n)
    return out


def _weight(node: Node) -> int:
    """How many clauses a leaf costs: an unquoted term matches any of its words, each a clause."""
    if isinstance(node, Term) and not node.phrase and not node.wildcard:
        return max(1, len(tokens(node.value)))
    return 1


def parse(search: str, max_terms: int = MAX_TERMS, max_depth: int = MAX_DEPTH) -> Node:
    """The syntax tree of a `search=` value (already URL-decoded, `+` already a space)."""
    if not ALLOWED.match(search):
        bad = sorted({c for c in search if not ALLOWED.match(c)})
        raise ParseError(
            f"Search not supported: {search}"
            if not bad
            else f"Search not supported: characters {''.join(bad)!r} are not allowed"
        )
    toks = _tokens(search)
    if not toks:
        raise ParseError("Search not supported: empty search")
    p = _Parser(toks, max_depth)
    node = p.query()
    if (tok := p.peek()) is not None:
        raise ParseError(f"Search not supported: unbalanced parentheses near {tok[1]!r}")
    n = sum(_weight(leaf) for leaf in leaves(node))
    if n > max_terms:
        raise ParseError(
            f"Search not supported: {n} terms, more than the {max_terms} a search may hold; split the "
            "search into several requests or use fewer OR terms"
        )
    return node
