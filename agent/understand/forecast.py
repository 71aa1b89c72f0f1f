"""Questions that ask for a forecast (what FDA or a firm will do, how likely a recall is): the records hold what
happened, never what will; answered with no figure, never with a count of a future period (always 0)."""

from __future__ import annotations

import re

__all__ = ["asks_forecast", "REPLY"]

REPLY = (
    "The FDA records say what has happened, not what will: I do not predict recalls, reports or decisions, or how "
    'likely they are. What I can show is the history, for example "adverse events for the 630G insulin pump per '
    'year" or "recalls by Boston Scientific since 2019", from which you can judge the trend yourself.'
)

_FORECAST = re.compile(
    r"(?i)\b(?:predict\w*|forecast\w*|how\s+likely|projections?|extrapolat\w*|odds|likelihood|"
    r"(?<!reasonable[- ])(?<!reasonable)probability|"
    r"(?:likely|expected|going)\s+to\s+(?:be|get|have|see|receive|recall|approve|clear|issue|happen)|"
    r"chances?\s+(?:of|that)|in\s+the\s+future|future\s+(?:recalls?|reports?|events?|clearances?|approvals?)|"
    r"will\s+(?:fda|the\s+fda|it|they|there|\w+)\s+(?:be\s+)?(?:recall\w*|get|receive|approv\w*|clear\w*|pull\w*|"
    r"grant\w*|issue|see|have|file)\b[^?.]*\b(?:next|coming|future|20[3-9]\d|202[6-9]|before|by\s+(?:the\s+)?end|"
    r"soon|and\s+when|in\s+time)|"
    r"will\s+\w+(?:\s+\w+)?\s+(?:get|have|see|receive|file|issue)\s+(?:more|fewer|another|any\s+more|new)\b|"
    r"next\s+(?:year|quarter|month)'?s?\s+(?:\w+\s+){0,2}(?:clearances?|approvals?|recalls?|reports?|mdrs?|events?)|"
    # "until when will FDA clear it?", "estimate me the date", "do you think they'll be shut down?", "expect you that
    # the number will increase in 2027?", "will there be a recall next year?", German "Prognose"
    r"(?:until\s+|by\s+)?when\s+will\s+(?:the\s+)?(?:fda|cdrh|it|they|we|our\s+\w+|\w+)\s+(?:be\s+)?"
    r"(?:clear\w*|approv\w*|decid\w*|grant\w*|recall\w*|respond\w*|cleared|approved|granted|finish\w*)|"
    r"estimate\s+(?:me\s+|us\s+)?(?:the\s+|a\s+)?(?:date|timeline|time\s+to|when|how\s+long)|"
    r"(?:do|would)\s+you\s+(?:think|expect|reckon|believe|foresee|guess)\b[^?.]*?(?:\bwill\b|'ll\b|\bgoing\s+to\b)|"
    r"(?:expect|expects|expecting)\s+(?:you\s+)?that\b[^?.]*?\bwill\b|"
    r"(?:do|would)\s+you\s+(?:expect|foresee|anticipate)\s+(?:more|fewer|any|a|an|another|new)\b|"
    r"(?:will|'ll|going\s+to)\s+(?!you\b|i\b|we\b)(?:[\w-]+\s+){0,7}?(?:increase|decrease|rise|grow|go\s+(?:up|down)|decline|"
    r"double|be\s+shut\s+down|shut\s+down)|"
    r"will\s+there\s+be\s+(?:a|an|any|more|fewer|another|new)?\s*[^?.]*?\b(?:next|coming|soon|future|20[3-9]\d|202[7-9])|"
    # "is BSX gonna get a recall", "will Medtronic lose share ... next year", "will FDA find our screw SE", "will our
    # 510(k) be cleared before ...", "project next year's 510(k) clearance count"
    r"\bchances?\b[^?.]{0,50}\b(?:clear\w*|approv\w*|recall\w*|decid\w*|grant\w*|reject\w*)|"
    r"gonna\s+(?:be|get|have|see|receive|recall|approve|clear|issue|happen|lose|win|file|put)|"
    r"\bwill\b[^?.]{0,80}\b(?:next|this|coming)\s+(?:year|quarter|month|round|cycle)|"
    r"will\s+(?:the\s+)?(?:fda|cdrh|agency|reviewers?|the\s+reviewer)\s+(?:\w+\s+)?(?:find|deem|consider|accept|"
    r"reject|agree|ask|want|require|say|decide|grant|clear|approve|object|let)|"
    r"will\s+(?:our|my|their|the|this|that|its)\s+[\w()-]+(?:\s+[\w()-]+)?\s+(?:be\s+|get\s+)?(?:clear\w*|"
    r"approv\w*|grant\w*|decid\w*|accept\w*|reject\w*|recall\w*)|"
    r"next\s+(?:year|quarter|month)'?s?\s+(?:[\w()]+\s+){0,2}(?:counts?|numbers?|volumes?|totals?)|"
    r"project\s+(?:the\s+)?(?:next|future|coming|20[2-9]\d)|"
    r"prognose|gut\s+feeling)\b"
)


def asks_forecast(question: str) -> bool:
    """True when the question asks what will happen or how likely it is: a forecast, not in the records."""
    return bool(_FORECAST.search(question or ""))
