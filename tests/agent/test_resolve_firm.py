"""resolve_manufacturer: the name normaliser's edge cases, grouping across datasets, counts equal direct SQL."""

from __future__ import annotations

import re
import unicodedata

import pytest

from agent.tools.base import ToolError
from agent.tools.context import ToolContext
from agent.tools.registry import run_tool
from agent.tools.resolve_firm import resolve_manufacturer  # noqa: F401  (registers the tool)
from mirror import Settings, Store
from mirror.lookup.firms import SOURCES, ensure_firm_table, find_firm, firm_keys
from mirror.sync import SAMPLE_DIR, SyncOptions, sync

from .test_resolve_location import SYNTHETIC_REGISTRATIONS, synthetic, synthetic_dir, write_registration_site  # noqa: F401  (fixtures)

KEYS = [  # SYNTHETIC name variants -> normalised key (real sample names are checked below)
    ("Lincoln Medical", "lincoln medical"),
    ("Lincoln Medical, Inc.", "lincoln medical"),
    ("LINCOLN MEDICAL LTD", "lincoln medical"),
    ("Co", "co"),
    ("Co.", "co"),
    ("Inc.", "inc"),
    ("S.A.", "sa"),
    ("L.L.C.", "llc"),
    ("The Company", "the company"),
    ("Company Inc", "company inc"),
    ("A Co", "a co"),
    ("AB Medical AB", "ab medical"),
    ("ab ab", "ab ab"),
    ("3M", "3m"),
    ("3M Company", "3m"),
    ("B. Braun Melsungen AG", "b braun melsungen"),
    ("Abbott Laboratories", "abbott laboratories"),
    ("Abbott Medical", "abbott medical"),
    ("ABBOTT MEDICAL, INC.", "abbott medical"),
    ("Dräger", "drager"),
    ("Drager", "drager"),
    ("DRÄGER", "drager"),
    ("Drägerwerk AG & Co. KGaA", "dragerwerk"),
    ("Smith & Nephew, Inc.", "smith and nephew"),
    ("Johnson & Johnson", "johnson and johnson"),
    ("The Anspach Effort, Inc.", "anspach effort"),
    ("The Cooper Companies", "cooper companies"),
    ("X-Ray Co", "x ray"),
    ("Hill-Rom Co., Inc.", "hill rom"),
    ("Foo L.L.C.", "foo"),
    ("Foo Pty Ltd", "foo"),
    ("Grupo Foo S.A. de C.V.", "grupo foo"),
    ("Novo Nordisk A/S", "novo nordisk"),
    ("DiaSorin S.p.A", "diasorin"),
    ("Shenzhen Mindray Bio-Medical Electronics Co., Ltd.", "shenzhen mindray bio medical electronics"),
    ("Łódź Ærø Straße GmbH", "lodz aero strasse"),
    ("Société Française S.A.", "societe francaise"),
    ("Bharat Surgical Pvt. Ltd.", "bharat surgical"),
    ("Incorporated Devices", "incorporated devices"),
    ("Coloplast A/S", "coloplast"),
    ("Cochlear Limited", "cochlear"),
    ("'; DROP TABLE x; --", "drop table x"),
    ("Medtronic® Inc.", "medtronic"),
    ("ACME™ Devices GmbH", "acme devices"),
    ("Фирма Ромашка", "фирма ромашка"),
    ("テルモ株式会社", "テルモ株式会社"),
    ("O'Neil – Smith (USA), Inc.", "oneil smith usa"),
    ("", ""),
    ("   ", ""),
    ("---", ""),
]
LEGAL_WORDS = {
    "inc",
    "incorporated",
    "llc",
    "ltd",
    "limited",
    "co",
    "corp",
    "corporation",
    "company",
    "gmbh",
    "ag",
    "kgaa",
    "sa",
    "de",
    "cv",
    "s",
    "a",
    "p",
    "spa",
    "srl",
    "sas",
    "bv",
    "nv",
    "plc",
    "pty",
    "pvt",
    "kk",
    "ab",
    "lp",
    "the",
    "and",
}


def test_normaliser_edge_cases(ctx):
    got = firm_keys(ctx.api, [name for name, _ in KEYS])
    assert list(zip([n for n, _ in KEYS], got)) == KEYS


def folded_words(name: str) -> list[str]:
    s = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c)).lower()
    for a, b in {"ß": "ss", "æ": "ae", "ø": "o", "ł": "l", "&": " and "}.items():
        s = s.replace(a, b)
    return re.sub(r"[\W_]+", " ", re.sub(r"[.'’`´]", "", s)).split()


def test_normaliser_never_mangles_a_name(ctx, sample_dir):
    """Over every real name in the sample and the SYNTHETIC ones: the key is a run of the name's whole words;
    only legal forms and a leading 'the' are dropped; a key is never a legal form alone or one letter."""
    con = Store(sample_dir).connect()
    names = [
        r[0]
        for s in SOURCES
        for r in con.execute(
            f"SELECT DISTINCT \"{s.field}\" FROM {s.table} WHERE trim(coalesce(\"{s.field}\", '')) <> ''"
        ).fetchall()
    ]
    con.close()
    names += [n for n, _ in KEYS if folded_words(n)] + [row[1] for row in SYNTHETIC_REGISTRATIONS]
    assert len(names) > 60
    for name, key in zip(names, firm_keys(ctx.api, names)):
        words, kept = folded_words(name), key.split()
        runs = [words[i : i + len(kept)] for i in range(len(words) - len(kept) + 1)]
        assert kept in runs, (name, key)
        i = runs.index(kept)
        assert set(words[:i]) <= {"the"} and set(words[i + len(kept) :]) <= LEGAL_WORDS, (name, key)
        if kept != words:
            assert len(key) > 1 and not set(kept) <= LEGAL_WORDS, (name, key)


# The sample's spellings of the firms asked about more than once below: {(variant, dataset, field)}
MEDTRONIC = {("Medtronic, Inc.", "device/pma", "applicant"), ("MEDTRONIC INC.", "device/pma", "applicant")}
BOSTON = {
    ("BOSTON SCIENTIFIC CORPORATION", "device/event", "manufacturer_d_name"),
    ("BOSTONSCIENTIFIC", "device/pma", "applicant"),
}
TZ = {("Tz Medical, Inc.", "device/udi", "company_name"), ("Tz Medical, Inc.", "gudid", "companyName")}
SAMPLE = [  # query, canonical name, {(variant, dataset, field)}, match
    ("Medtronic", "Medtronic, Inc.", MEDTRONIC, "exact"),
    ("MEDTRONIC INC", "Medtronic, Inc.", MEDTRONIC, "exact"),
    ("boston scientific", "BOSTON SCIENTIFIC CORPORATION", BOSTON, "exact"),
    (
        "DiaSorin SpA",
        "DiaSorin S.p.A",
        {
            ("DiaSorin S.p.A", "device/registrationlisting", "owner_operator_firm_name"),
            ("DIASORIN S.P.A.", "device/registrationlisting", "name"),
        },
        "exact",
    ),
    ("TZ MEDICAL", "Tz Medical, Inc.", TZ, "exact"),
    ("793149709", "Tz Medical, Inc.", TZ, "id"),
    ("2518433", "Arrow International Inc", {("Arrow International Inc", "device/recall", "recalling_firm")}, "id"),
    ("Medtronc", "Medtronic, Inc.", MEDTRONIC, "typo"),
    ("Bostn Scientific Corp", "BOSTON SCIENTIFIC CORPORATION", BOSTON, "typo"),
    (
        "Ethicon",
        "ETHICON ENDO-SURGERY, INC.",
        {
            ("ETHICON ENDO-SURGERY, INC.", "device/registrationlisting", "name"),
            ("ETHICON ENDO-SURGERY, INC.", "device/registrationlisting", "owner_operator_firm_name"),
        },
        "prefix",
    ),
    ("minimed", "MEDTRONIC MINIMED", {("MEDTRONIC MINIMED", "device/event", "manufacturer_d_name")}, "contains"),
    ("Encore Medical", "Encore Medical, Lp", {("Encore Medical, Lp", "device/enforcement", "recalling_firm")}, "exact"),
    ("horiba abx", "Horiba ABX SAS", {("Horiba ABX SAS", "device/510k", "applicant")}, "exact"),
]


@pytest.mark.parametrize("query,canonical,variants,match", SAMPLE, ids=[q for q, *_ in SAMPLE])
def test_sample_firms(ctx, query, canonical, variants, match):
    r = run_tool(ctx, "resolve_manufacturer", {"query": query})
    assert {(row["name"], row["dataset"], row["field"]) for row in r.rows} == variants
    assert r.total == len(variants) and r.id_fields == ["name"]
    assert r.notes[0].startswith(f"firm: {canonical} (")
    found = find_firm(ctx.api, query)
    assert found.candidates[0].name == canonical and found.candidates[0].match == match
    assert {p.dataset for p in r.provenance} == {row["dataset"] for row in r.rows}
    for p in r.provenance:
        assert p.as_of == ctx.api.as_of("gudid" if p.dataset == "gudid" else p.dataset.split("/")[1]) != ""
    firm = ctx.resolved.firms[-1]
    assert firm.canonical == canonical and set(firm.variants) == {v for v, _, _ in variants}


def test_records_and_ids_equal_direct_sql(ctx, sample_dir):
    """Every name of every source: its record count and identifiers, against SQL written here."""
    con = Store(sample_dir).connect()
    ids_sql = {
        "company_name": "'DUNS ' || labeler_duns_number",
        "companyName": "'DUNS ' || \"dunsNumber\"",
        "recalling_firm": "CASE WHEN firm_fei_number <> '' THEN 'FEI ' || firm_fei_number END",
    }
    checked = 0
    for s in SOURCES:
        count = "count(DISTINCT mdr_report_key)" if s.table == "device_event_device" else "count(*)"
        ids = ids_sql.get(s.field) if s.dataset != "enforcement" else None
        rows = con.execute(
            f'SELECT "{s.field}", {count}, {f"list(DISTINCT {ids})" if ids else "[]"} FROM {s.table} '
            f"WHERE trim(coalesce(\"{s.field}\", '')) <> '' GROUP BY 1"
        ).fetchall()
        for name, n, expected_ids in rows:
            found = find_firm(ctx.api, name)
            match = [v for v in found.variants if (v.name, v.table, v.field) == (name, s.table, s.field)]
            assert len(match) == 1 and match[0].records == n, (s.table, name)
            if ids:
                assert set(match[0].ids) == {i for i in expected_ids if i and not i.endswith(" ")}, (s.table, name)
            checked += 1
    con.close()
    assert checked >= 30


def test_several_firms_are_ranked_and_named(ctx):
    r = run_tool(ctx, "resolve_manufacturer", {"query": "Medtronic"})
    others = next(n for n in r.notes if n.startswith("other firms matching 'Medtronic'"))
    for name in ("MEDTRONIC MINIMED", "MEDTRONIC NEUROMODULATION", "MEDTRONIC PUERTO RICO OPERATIONS CO."):
        assert name in others
    r = run_tool(ctx, "resolve_manufacturer", {"query": "Medtr"})  # a prefix of four firms: best first
    assert r.notes[0].startswith("firm: Medtronic, Inc. (") and "no firm is named exactly 'Medtr'" in r.notes[1]
    assert "firm context unchanged" in r.notes[-1]


SYNTHETIC = [  # on the SYNTHETIC registrations: query, canonical, names grouped, context set
    ("Abbott Medical", "Abbott Medical", {"Abbott Medical", "ABBOTT MEDICAL, INC."}, True),
    ("abbott", "Abbott Medical", {"Abbott Medical", "ABBOTT MEDICAL, INC."}, False),
    ("Abbott Laboratories", "Abbott Laboratories", {"Abbott Laboratories"}, True),
    ("Dräger Medical Systems", "DRAGER MEDICAL SYSTEMS INC", {"DRAGER MEDICAL SYSTEMS INC"}, True),
    ("Drägerwerk", "Drägerwerk AG & Co. KGaA", {"Drägerwerk AG & Co. KGaA"}, True),
    ("B Braun", "B. Braun Melsungen AG", {"B. Braun Melsungen AG"}, True),
    ("3M", "3M Company", {"3M Company"}, True),
    ("AB Medical", "AB Medical AB", {"AB Medical AB"}, True),
    ("Lincoln Medical", "Lincoln Medical Inc", {"Lincoln Medical Inc", "Lincoln Medical Ltd"}, True),
]


@pytest.mark.parametrize("query,canonical,names,remembered", SYNTHETIC, ids=[q for q, *_ in SYNTHETIC])
def test_synthetic_grouping(synthetic, query, canonical, names, remembered):
    r = run_tool(synthetic, "resolve_manufacturer", {"query": query})
    assert r.notes[0].startswith(f"firm: {canonical} (")
    assert {row["name"] for row in r.rows} == names
    assert all(row["dataset"] == "device/registrationlisting" for row in r.rows)
    assert all(any(i.startswith("REG 80000") for i in row["ids"]) for row in r.rows)
    assert any(
        n.startswith("not in the mirror (not searched): device/udi, gudid") or "device/510k" in n for n in r.notes
    )  # only registrations were synced
    assert (bool(synthetic.resolved.firms) and synthetic.resolved.firms[-1].canonical == canonical) == remembered


def test_abbott_laboratories_and_abbott_medical_stay_apart(synthetic):
    r = run_tool(synthetic, "resolve_manufacturer", {"query": "Abbott"})
    assert "Abbott Laboratories" in next(n for n in r.notes if n.startswith("other firms matching"))
    assert "Abbott Laboratories" not in {row["name"] for row in r.rows}


@pytest.mark.parametrize("query", ["Atlantis Devices", "Lincoln Medical", "'; DROP TABLE x; --", "?!", "zz"])
def test_no_match_is_a_note(ctx, query):
    r = run_tool(ctx, "resolve_manufacturer", {"query": query})
    assert r.total == 0 and r.rows == [] and r.notes[0].startswith(f"no firm in the mirror matches {query!r}")
    assert {p.dataset for p in r.provenance} >= {"device/udi", "device/pma", "device/event"}
    assert run_tool(ctx, "resolve_manufacturer", {"query": "Medtronic"}).total == 2  # the mirror is untouched


@pytest.mark.parametrize(
    "args,message",
    [
        ({"query": ""}, "query: String should have at least 1 character"),
        ({"query": "   "}, "query is empty"),
        ({"query": "M" * 5000}, "query: String should have at most 300 characters"),
        ({"name": "Medtronic"}, "name: unknown argument"),
    ],
)
def test_bad_input_is_a_clear_error(ctx, args, message):
    with pytest.raises(ToolError) as e:
        run_tool(ctx, "resolve_manufacturer", args)
    assert message in str(e.value)


def test_name_table_is_built_once_per_mirror_version(tmp_path):
    """A new sync publishes new data: the next lookup rebuilds the table and sees the new SYNTHETIC firm."""
    site, data = tmp_path / "site", tmp_path / "data"
    write_registration_site(site, SYNTHETIC_REGISTRATIONS[:3])
    assert sync(Settings(data_dir=data), SyncOptions(source_dir=site, quiet=True)).ok
    c = ToolContext.open(Settings(data_dir=data))
    try:
        assert find_firm(c.api, "Medtronic").build_seconds > 0
        assert ensure_firm_table(c.api)[0] == 0.0 and find_firm(c.api, "Zeta Newco").candidates == []
        write_registration_site(
            site,
            SYNTHETIC_REGISTRATIONS[:3]
            + [("8000099", "Zeta Newco GmbH", "AT", "", ["Manufacture Medical Device"], "FRN")],
            export_date="2025-02-01",
        )
        assert sync(Settings(data_dir=data), SyncOptions(source_dir=site, quiet=True)).ok
        found = find_firm(c.api, "Zeta Newco")
        assert found.build_seconds > 0 and found.candidates[0].name == "Zeta Newco GmbH"
    finally:
        c.close()


def test_missing_datasets_do_not_crash(tmp_path):
    assert sync(Settings(data_dir=tmp_path), SyncOptions(source_dir=SAMPLE_DIR, only=["pma"], quiet=True)).ok
    c = ToolContext.open(Settings(data_dir=tmp_path))
    try:
        r = run_tool(c, "resolve_manufacturer", {"query": "medtronic inc"})
        assert r.total == 2 and any("device/event" in n and "not searched" in n for n in r.notes)
    finally:
        c.close()


def test_a_reopened_connection_rebuilds_the_table(ctx):
    assert find_firm(ctx.api, "Medtronic").candidates[0].name == "Medtronic, Inc."
    ctx.api.close()  # the next cursor is a new connection with an empty memory db
    found = find_firm(ctx.api, "Medtronic")
    assert found.build_seconds > 0 and found.candidates[0].name == "Medtronic, Inc."
