"""Product codes typed in a question: said to be codes, in capitals, or in lower case where a code stands."""

from __future__ import annotations

from mirror.lookup.lexicon import product_code_details

from ..tools import ToolContext
from . import vocab
from .dates import MONTHS, UNITS
from .ids import NOT_CODES, code_tokens
from .tokens import Tokens
from .types import Code, DeviceFilter, Interpretation

__all__ = ["read_codes", "MAX_GIVEN_CODES", "ENGLISH_3"]

MAX_GIVEN_CODES = 20


def read_codes(ctx: ToolContext, tokens: Tokens, it: Interpretation) -> list[str]:
    """Product codes typed in the question; returns those unknown to the mirror that were said to be codes."""
    said, caps = code_tokens(tokens)
    caps += _lower_codes(ctx, tokens, set(said + caps))
    phrased = {
        k
        for i, j, tag in vocab.match_phrases(tokens, vocab.FILTER_PHRASES, "filter", take=False)
        if j - i > 1 and tag.split("=")[0] in _LABEL_FLAGS
        for k in range(i, j)
    }  # "not made with NRL", "labeled as no NRL": the label's words, not the product code NRL
    caps = [i for i in caps if i not in phrased]
    idx = said + caps
    if not idx:
        return []
    if len(idx) > MAX_GIVEN_CODES:
        tokens.take(min(idx), max(idx) + 1, "code")
        it.notes.append(f"{len(idx)} product codes is more than I search at once ({MAX_GIVEN_CODES})")
        return [tokens.toks[i].text.upper() for i in idx]
    typed = [tokens.toks[i].text.upper() for i in idx]
    known = product_code_details(ctx.api, typed)
    lay = [
        k
        for k, i in enumerate(idx)
        if i not in said
        and typed[k] in known
        and (noun := _test_noun(tokens, i + 1))
        and noun.rstrip("s") not in (known[typed[k]].device_name or "").lower()
    ]  # "PSA test", "PSA blood test": the antigen, not product code PSA (a jejunostomy kit)
    if lay:
        idx = [i for k, i in enumerate(idx) if k not in lay]
        typed = [t for k, t in enumerate(typed) if k not in lay]
        known = {c: d for c, d in known.items() if c in typed}
        if not idx:
            return []
    unknown = [typed[k] for k, i in enumerate(idx) if typed[k] not in known and i in said]
    for k, i in enumerate(idx):
        if typed[k] in known or i in said:
            tokens.take(i, i + 1, "code")
    if known:
        it.device = DeviceFilter(
            words=", ".join(dict.fromkeys(c for c in typed if c in known)),
            path="given",
            codes=[Code(code=c, name=d.device_name, device_class=d.device_class) for c, d in known.items()],
        )
    return list(dict.fromkeys(unknown))


def _lower_codes(ctx: ToolContext, tokens: Tokens, seen: set[int]) -> list[int]:
    """Three-letter words typed in lower case that are product codes the mirror knows and no English or device
    word ("ozp adverse events", "frn regulation number"; not "ear", "gas", "bag")."""
    from mirror.lookup.lexicon import device_word_reach

    cands = [
        i
        for i, t in enumerate(tokens.toks)
        if i not in seen
        and tokens.free(i)
        and len(t.text) == 3
        and t.text.isalpha()
        and t.text.islower()
        and t.low not in vocab.FUNCTION | vocab.FIELD_WORDS
        and t.low not in ENGLISH_3
        and t.low not in MONTHS
        and t.low not in UNITS
        and t.text.upper() not in NOT_CODES
        and t.low not in _DATASET_WORDS
    ]
    if not cands:
        return []
    lows = tokens.lows()
    cands = [
        i for i in cands if not i or lows[i - 1] not in ("the", "a", "an", "got", "get", "gets", "given")
    ]  # "got the nod", "an eel": a noun after its article, not a code typed in lower case
    cands = [
        i
        for i in cands
        if i + 1 >= len(lows)
        or lows[i + 1] in _DATASET_WORDS | vocab.FUNCTION | vocab.FIELD_WORDS
        or not lows[i + 1].isalpha()
    ]  # "djo surgical screw" is a firm's name
    known = product_code_details(ctx.api, [tokens.toks[i].text for i in cands])
    reach = device_word_reach(ctx.api, [tokens.toks[i].low for i in cands if tokens.toks[i].text.upper() in known])
    return [i for i in cands if tokens.toks[i].text.upper() in known and not reach.get(tokens.toks[i].low)]


_LABEL_FLAGS = {"nrl", "nonrl", "sterile", "bsterile", "single", "rx", "otc", "gmp", "serial", "lotc"}
_DATASET_WORDS = {
    w for table in (vocab.DATASET_PHRASES, vocab.MEASURE_PHRASES, vocab.FILTER_PHRASES) for k in table for w in k
}


_LEGAL_3 = {"inc", "llc", "ltd", "plc", "gmbh", "spa", "srl", "sas", "corp", "pty", "pvt", "kft", "bhd"}


# three-letter English words that are also product codes, never read as codes when typed in lower case
def _test_noun(tokens: Tokens, i: int) -> str:
    """The test noun at i, or after a specimen word ("blood test", "serum assay"); '' when none."""
    lows = [t.low for t in tokens.toks[i : i + 2]]
    if lows and lows[0] in _TEST_NOUNS | {"level", "levels"}:
        return lows[0]
    if len(lows) == 2 and lows[0] in ("blood", "serum", "plasma", "lab", "urine") and lows[1] in _TEST_NOUNS:
        return lows[1]
    return ""


_TEST_NOUNS = {"test", "tests", "testing", "assay", "assays", "immunoassay", "immunoassays", "screening"}
ENGLISH_3 = (
    set(
        """all and any are bag bed box but can cap car cup day did ear end eye far few for gas get got gum had
has her him his hot how ice ill its job key kit lab law leg lid lip log low man map may men met mix new nor not now
oil old one our out own pad pan pen per pet pin pot put ray red rod row run saw say see set she sit six son sun tab
tap ten the tie tip toe too top toy try tub two use van via war was way web who why win yes yet
you pls plz thx btw fyi pay buy ask let fix aim act add ago age res""".split()
    )
    | _LEGAL_3
)
