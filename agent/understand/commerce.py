"""Questions about money, markets and finance that no openFDA device dataset holds: FDA user fees, payment codes and
coverage, stocks, valuations and credit ratings, prices, sales and revenue. Each class is refused in one or two
sentences that say where the figure is published and what the records here do hold, never answered with a count of
reports or clearances that happen to name the device, the firm or the year."""

from __future__ import annotations

import re

__all__ = [
    "asks_commerce",
    "asks_fees",
    "asks_finance",
    "asks_reimbursement",
    "REPLY",
    "FEES_REPLY",
    "FINANCE_REPLY",
    "REIMBURSEMENT_REPLY",
]

_EXAMPLES = '"510(k) clearances by Boston Scientific since 2020" or "recalls by Orthofix since 2019"'

REPLY = (
    "Prices, costs, sales, revenue, market share and other business figures (staff, shares, acquisitions) are not in "
    "the FDA device records this mirror holds, so I cannot give them. What I can show is what the records do hold, "
    'for example "adverse events for the 770G insulin pump" or "510(k) clearances by Boston Scientific since 2020".'
)
FEES_REPLY = (
    "FDA user fees (the MDUFA fees for a 510(k), De Novo, PMA or establishment registration, and the small business "
    "rates) are not in the FDA device records this mirror holds: FDA publishes each fiscal year's fees on its MDUFA "
    "user fee page and in the Federal Register, and decides small business status through its Small Business "
    "Determination program. What I can show is the submissions themselves, for example "
    '"510(k) clearances for product code LLZ since 2020" or "PMA approvals by Medtronic".'
)
FINANCE_REPLY = (
    "Stock prices, investment advice, company valuations, credit ratings and financial health are not in the FDA "
    "device records this mirror holds, and I do not give them: look to the company's SEC filings, a financial data "
    "service or a credit agency such as Dun & Bradstreet. What I can show is a firm's FDA record, for example "
    f"{_EXAMPLES}."
)
REIMBURSEMENT_REPLY = (
    "Billing and payment codes (CPT, HCPCS, ICD-10, DRG) and Medicare or insurer coverage are not in the FDA device "
    "records this mirror holds: CMS publishes HCPCS codes and coverage decisions, and the AMA maintains CPT. What I "
    'can show is the FDA side, for example "the product code for a leadless pacemaker" or "510(k) clearances for '
    'product code LLZ".'
)

# selling as a figure (how many sold, a selling price, who sells the most); "which firms sell X", "what does X sell" and
# "devices sold nationwide" ask for firms, products and distribution, which the records hold
_SOLD = (
    r"(?:(?:how\s+(?:many|much)|number\s+of|volumes?\s+of|units?|quantit(?:y|ies)\s+of)\b[^?.;]{0,60}\b"
    r"(?:sell|sells|selling|sold)\b|(?:sell|sells|selling|sold)\s+(?:for|at)\s+(?:\$|\d|a\b|an\b|around|about|"
    r"under|over|what|how)|(?:sell|sells|selling|sold)\s+for\s*[?.!]*$|selling\s+prices?|(?:best|top|most|biggest|fast(?:est)?)[\s-]+sell(?:ing|ers?)|"
    r"(?:sell|sells|sold|selling)\s+(?:the\s+)?(?:most|more|less|fewer|better|best)\b|"
    r"sold\s+(?:last|this|per|each|annually|a\s+year|worldwide|to\s+date|so\s+far)\b)"
)
# how many people a firm employs, not "recalls caused by employees"
_STAFF = (
    r"(?:(?:how\s+many|number\s+of|count\s+of)\s+(?:\w+\s+){0,2}?(?:employees|staff)(?!\s+(?:members?\s+)?(?:were|was|got)\b)|"
    r"(?:how\s+many|number\s+of)\s+(?:people|workers)\s+(?:work\w*|are\s+employed|"
    r"does\b[^?.;]{1,40}\bemploy)|employees?\s+(?:count|numbers?|size))"
)
_MONEY = re.compile(
    r"(?i)\b(?:(?:list|selling|sale|retail|average|unit|purchase|market)\s+prices?|prices?|pricing|priced|"
    r"(?:how\s+much|what)\s+(?:does|do|did|is|are|would|will)\b[^?.]{0,60}\b(?:cost|costs|"
    r"(?<!battery\s)(?<!state\sof\s)charge(?!\s+(?:of|on|level|indicator|state|status|cycles?|time)\b))\b|"
    r"costs?\s+(?:of|for)\s+"
    r"(?:a|an|the|one|each)\b|revenues?|turnover|earnings|(?<!non-)(?<!non\s)(?<!not-for-)profits?|market\s+shares?|market\s+size|(?-i:TAM|SAM|SOM)\b|(?:total|serviceable|obtainable)?\s*addressable\s+market|"
    r"(?:lose|lost|losing|gain|gained|gaining|take|taking|win|winning)\s+(?:market\s+)?share\b|"
    r"size\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,5}?market\b|market\b[^?.;]{0,40}\b(?:worth|value|valued|valuation)\b|"
    r"(?:worth|value|valued)\b[^?.;]{0,20}\bmarket\b|in\s+(?:us\s+|u\.s\.\s+)?dollars\b|"
    rf"sales\b(?!\s+(?:representative|rep)s?\b)|{_SOLD}|units\s+shipped|(?:make|makes|made|making|earns?|earned)\s+"
    r"(?:the\s+)?(?:most|more|much|any|less|good)?\s*money|"
    rf"\$\s?\d|\d\s?(?:usd|dollars?|euros?)\b|{_STAFF}|headcount|workforce|stock\s+(?:price|ticker)|share\s+price|"
    r"market\s+cap\w*|salar(?:y|ies)|wages?|cheap(?:er|est)?|(?:more|less|most|least)\s+expensive|tariffs?|"
    r"import\s+dut(?:y|ies)|(?<!data\s)(?<!image\s)(?<!signal\s)(?<!imaging\s)acquisitions?"
    r"(?!\s+(?:systems?|software|units?|modules?|devices?|boards?|cards?|consoles?|workstations?)\b)|(?<!images\s)(?<!image\s)(?<!data\s)(?<!signals\s)(?<!signal\s)(?<!scans\s)acquired\s+by|"
    r"mergers?|initial\s+public\s+offering|(?:went|go|going)\s+public|"
    # what a buyer pays: a discount off list, a rebate, a price to negotiate, what other hospitals pay
    r"discounts?\s+(?:off|from|on|below|to)\b|(?:typical|average|usual|best|deeper|volume|gpo|contract)\s+discounts?|"
    r"rebates?|(?:before|to|when|so|we|can)\s+(?:we\s+)?negotiat\w*|"
    r"negotiat\w*\s+(?:a\s+|the\s+|our\s+)?(?:price|pricing|contract|deal|discount|terms)|(?:hospitals?|customers?|buyers?|others?|systems?)\s+(?:are\s+|were\s+)?pay(?:ing|s)?\b)"
)
# the records' own money words: "cost of the recall" is no price asked; "distributed" is the records' word for sold
_RECORD_WORDS = re.compile(
    r"(?i)\b(?:recall(?:ed|s)?\s+units|product\s+quantity|quantity\s+(?:in\s+)?commerce|"
    r"units\s+shipped\b[^?.;]{0,60}\brecall\w*|recall\w*\b[^?.;]{0,60}\bunits\s+shipped|"
    r"(?:entr(?:y|ies)|records?|dis|udis?|devices?|listings?)\b[^?.;$]{0,30}\b(?:went|go|going|gone)\s+public)\b"
)

_K = r"510\s*\(?\s*k\s*\)?s?"
_BUSINESS = r"(?:bu\w{0,3}s\w{0,3}ne?s{1,2}(?:es)?|biz)"  # "buisness", "busines", "businesses"
_FEES = re.compile(
    r"(?i)\b(?:user[\s-]+fees?|mdufa|(?:fy|fiscal\s+year)\s*'?\d{2,4}\s+(?:[\w()-]+\s+){0,3}?fees?|"
    rf"(?:review|application|submission|filing|registration|listing|establishment|annual|{_K}|pma|de\s*novo|"
    r"513\s*\(?g\)?|fda|cdrh|q-?sub)\s+(?:user\s+|review\s+|application\s+)?fees?|"
    r"fees?\s+(?:amounts?|schedules?|rates?|tables?|waivers?|reductions?|discounts?|exemptions?|(?:for|to|of)\s+"
    r"(?:a\s+|an\s+|the\s+|our\s+|my\s+|one\s+)?(?:new\s+|traditional\s+|special\s+|abbreviated\s+)?"
    rf"(?:{_K}|pma|de\s*novo|submissions?|registration|small|review|filing))|"
    rf"small[\s-]+(?:{_BUSINESS}|firm|company)\s+(?:determinations?|discounts?|rates?|fees?|status|qualif\w*|"
    r"reductions?|waivers?|certif\w*|programs?|decisions?|designations?|sbd)|"
    rf"fees?\s+(?:\w+\s+){{0,4}}?(?:{_K}|pma|de\s*novo)|"
    r"(?:what|how\s+much)(?:\s+(?:is|are|was|were)|\s*'s|s)\s+(?:the\s+|a\s+|an\s+)?(?:[\w()-]+\s+){0,3}?fees?\b|"
    rf"qualif\w*\s+(?:as|for)\s+(?:a\s+|the\s+)?small[\s-]+{_BUSINESS}|sbd\s+(?:program|request|number|decision)|"
    r"(?:how\s+much|what)\s+(?:does|do|will|would)\s+(?:the\s+)?(?:fda|cdrh)\s+charge|"
    r"(?:fda|cdrh)\s+charges?\s+(?:for|to)|"
    r"how\s+much\s+(?:is\s+it\s+|does\s+it\s+cost\s+)?to\s+(?:file|submit|register))\b"
)
_FINANCE = re.compile(
    r"(?i)\b(?:invest(?:ing)?\s+in|good\s+(?:buy|investment|bet)|worth\s+(?:buying|investing\s+in|an?\s+investment)|"
    r"investment\s+(?:advice|grade|recommendations?|ratings?|case|thesis|opportunit\w*)|"
    r"(?:buy|sell|short|hold|own)\s+(?:(?!(?:their|all|remaining|affected|existing|unused|recalled)\b)\w+\s+)"
    r"{0,3}?(?:stocks?|shares?)(?!\s+(?:of\s+(?:the|this|that|these|those|affected|recalled)\s+(?:lots?|units?|batch\w*|devices?|products?|recall\w*|affected|recalled)|on\s+hand)\b)|"
    r"stocks?\s+(?:prices?|tickers?|symbols?|quotes?|performance|outlook|tips?|picks?|to\s+(?:buy|sell|own|watch)|"
    r"(?:is\s+)?an?\s+(?:good|bad|safe|smart)|doing|trading|value|analysis|rating)|"
    r"(?:medical[\s-]+device|medtech|healthcare|health\s+care)\s+stocks?|stock\s+market|share\s+prices?|"
    r"shareholders?|market\s+cap\w*|valuations?|valu(?:e|ate|ing)\s+(?:the\s+|this\s+|that\s+|a\s+|our\s+)?"
    r"(?:deal|company|firm|business|target|acquisition|start-?up)|ebitda|ebit|p/e|price[\s-]+to[\s-]+earnings|"
    r"(?:earnings|revenue|sales)\s+multiples?|multiples?\s+(?:should|would|to\s+offer)|acquisition\s+price|"
    r"dividends?|nasdaq|nyse|credit\s+(?:ratings?|scores?|risk|reports?|worth\w*|limits?|checks?|history)|"
    r"creditworth\w*|d\s?&\s?b|dun\s*(?:&|and)\s*bradstreet|paydex|moody'?s|fitch|s\s?&\s?p\s+ratings?|"
    r"financial(?:ly)?\s+(?:stable|stability|health|healthy|strength|strong|sound|statements?|position|condition|"
    r"results|performance|data|risk|viability|viable|solvent)|bankrupt\w*|insolven\w*|solvency|balance\s+sheets?|"
    r"cash\s+flows?|net\s+income|debt\s+(?:load|levels?|ratio)|funding\s+rounds?|venture\s+capital|private\s+equity)"
    r"(?![\w&])"
)
_REIMBURSEMENT = re.compile(
    r"(?i)\b(?:cpt|hcpcs|icd[\s-]?(?:9|10|11)(?:[\s-]?(?:cm|pcs))?|ms-drg|drg\s+(?:codes?|weights?|payments?)|"
    r"billing\s+codes?|reimburs\w*|medicare|medicaid|cms\s+(?:coverage|payment|codes?|rates?)|"
    r"(?:national|local)\s+coverage\s+determinations?|coverage\s+(?:determinations?|decisions?|polic\w*)|"
    r"payers?|insurers?|insurance\s+(?:cover\w*|pay\w*|codes?|billing)|covered\s+by\s+(?:insurance|payers?)|"
    r"ntap|tcet|payment\s+rates?)\b(?!\s+(?:medical|inc|corp\w*|llc|ltd|gmbh|co|company|industries|"
    r"technologies|labs?|laboratories|systems|group|holdings)\b)"
)


def asks_commerce(question: str) -> bool:
    """True when the question asks for a price, cost, sales, revenue or market share."""
    q = question or ""
    return bool(_MONEY.search(q)) and not _RECORD_WORDS.search(q)


def asks_fees(question: str) -> bool:
    """True when the question asks for an FDA user fee, its amount, or small business status."""
    return bool(_FEES.search(question or ""))


def asks_finance(question: str) -> bool:
    """True when the question asks about stock, an investment, a valuation, a credit rating or financial health."""
    return bool(_FINANCE.search(question or ""))


def asks_reimbursement(question: str) -> bool:
    """True when the question asks for a billing code (CPT, HCPCS, ICD-10) or for payment and coverage."""
    return bool(_REIMBURSEMENT.search(question or ""))
