"""SYNTHETIC mirrors for the surveillance tests: small dataset files published through the real Store.

The shipped sample has 7 MAUDE reports, too few for a 2x2 table with something on every side, so the signal
tests build a made-up event dataset whose counts are chosen by hand (see `EVENTS`)."""

from __future__ import annotations

import json
from pathlib import Path

from mirror.store.files import Store
from mirror.store.state import set_meta

# (product code, year, event type, problems, how many reports): SYNTHETIC.
EVENTS = [
    ("AAA", 2023, "Death", ["Battery Problem"], 3),
    ("AAA", 2023, "Malfunction", ["Battery Problem"], 3),
    ("AAA", 2023, "Malfunction", ["Crack"], 2),
    ("AAA", 2023, "Injury", ["Crack", "Overheating"], 2),
    ("BBB", 2023, "Death", ["Battery Problem"], 2),
    ("BBB", 2023, "Malfunction", ["Battery Problem"], 3),
    ("BBB", 2023, "Malfunction", ["Crack"], 50),
    ("BBB", 2023, "Injury", [], 45),
    ("AAA", 2022, "Malfunction", ["Crack"], 1),
    ("CCC", 2022, "Malfunction", ["Crack"], 9),
]


def publish(store: Store, dataset: str, ddl: str, rows_sql: list[tuple[str, list]], export_date: str) -> None:
    con = store.open_staging(dataset)
    con.execute(ddl)
    for sql, params in rows_sql:
        con.execute(sql, params)
    set_meta(con, export_date=export_date, status="complete")
    store.publish(dataset, con)


def event_rows(spec=EVENTS, start: int = 1) -> list[tuple]:
    rows, key = [], start
    for code, year, etype, probs, n in spec:
        for i in range(n):
            rec = {"mdr_report_key": str(key), "event_type": etype, "product_problems": probs}
            rows.append(
                (
                    str(key),
                    etype,
                    f"{year}-0{1 + i % 9}-15",
                    probs,
                    [code],
                    f"FIRM {code}",
                    json.dumps(rec),
                    f"BRAND {code}",
                    f"0000000000{key:04d}",
                )
            )
            key += 1
    return rows


def publish_events(data_dir: Path, rows: list[tuple], export_date: str = "2024-01-01") -> Store:
    store = Store(data_dir)
    ddl = (
        "CREATE TABLE device_event (mdr_report_key VARCHAR, event_type VARCHAR, date_received DATE, "
        "product_problems VARCHAR[], product_code_list VARCHAR[], manufacturer_name VARCHAR, record JSON);"
        "CREATE TABLE device_event_device (mdr_report_key VARCHAR, brand_name VARCHAR, "
        "manufacturer_d_name VARCHAR, udi_di VARCHAR, device_report_product_code VARCHAR)"
    )
    ins = [("INSERT INTO device_event VALUES (?, ?, ?, ?, ?, ?, ?)", list(r[:7])) for r in rows]
    ins += [("INSERT INTO device_event_device VALUES (?, ?, ?, ?, ?)", [r[0], r[7], r[5], r[8], r[4][0]]) for r in rows]
    publish(store, "event", ddl, ins, export_date)
    return store
