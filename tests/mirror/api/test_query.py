"""Table-driven tests of the openFDA search grammar (issue 3: the parser; SQL translation comes next)."""

from __future__ import annotations

import pytest

from mirror.api.query import And, Exists, Not, Or, ParseError, Range, Term, parse

T = Term

CASES = [
    ("product_code:DXY", T("product_code", "DXY")),
    ("DXY", T(None, "DXY")),
    ('brand_name:"multiple myeloma"', T("brand_name", "multiple myeloma", phrase=True)),
    ("brand_name:child*", T("brand_name", "child*", wildcard=True)),
    (r"k_number:K\*1", T("k_number", "K*1")),  # an escaped * is a literal
    ("device.openfda.device_class:2", T("device.openfda.device_class", "2")),
    ("products.product_code.exact:LZA", T("products.product_code.exact", "LZA")),
    # OR is the default operator; AND binds tighter than OR
    ("a:x b:y", Or((T("a", "x"), T("b", "y")))),
    ("a:x OR b:y", Or((T("a", "x"), T("b", "y")))),
    ("a:x AND b:y", And((T("a", "x"), T("b", "y")))),
    ("a:1 AND b:2 OR c:3", Or((And((T("a", "1"), T("b", "2"))), T("c", "3")))),
    ("a:1 OR b:2 AND c:3", Or((T("a", "1"), And((T("b", "2"), T("c", "3")))))),
    ("(a:1 OR b:2) AND c:3", And((Or((T("a", "1"), T("b", "2"))), T("c", "3")))),
    ("NOT a:1", Not(T("a", "1"))),
    ("a:1 AND NOT b:2", And((T("a", "1"), Not(T("b", "2"))))),
    ("-a:1", Not(T("a", "1"))),
    ("+a:1", T("a", "1")),
    ("f:(x OR y)", Or((T("f", "x"), T("f", "y")))),
    ("f:(x y)", Or((T("f", "x"), T("f", "y")))),
    ("date_received:[20200101 TO 20201231]", Range("date_received", "20200101", "20201231")),
    ("decision_date:[2020-01-01 TO 2020-12-31]", Range("decision_date", "2020-01-01", "2020-12-31")),
    ("decision_date:{2020-01-01 TO *]", Range("decision_date", "2020-01-01", None, False, True)),
    ("_exists_:udi_di", Exists("udi_di")),
    ("_missing_:udi_di", Not(Exists("udi_di"))),
    ("  a:x  ", T("a", "x")),
]


@pytest.mark.parametrize("search,tree", CASES, ids=[c[0] for c in CASES])
def test_grammar(search, tree):
    assert parse(search) == tree


BAD = [
    ("a:(x", "expected ')'"),
    ("(a:x", "expected ')'"),
    ("a:x)", "unbalanced parentheses"),
    ("'; DROP TABLE device_event; --", "not allowed"),
    ("a:x; DELETE", "not allowed"),
    ("a:x|b", "not allowed"),
    ('a:"open phrase', "unbalanced quote"),
    ("date_received:[20200101 TO 20201231", "unexpected end"),
    ("date_received:[20200101 20201231]", "needs TO"),
    ("[1 TO 2]", "needs a field"),
    ("_exists_:(a)", "needs a field name"),
    ("", "empty search"),
    ("a:x AND", "unexpected end"),
]


@pytest.mark.parametrize("search,message", BAD, ids=[b[0] or "empty" for b in BAD])
def test_bad_input_is_a_search_not_supported_error(search, message):
    with pytest.raises(ParseError) as e:
        parse(search)
    assert str(e.value).startswith("Search not supported")
    assert message in str(e.value)
