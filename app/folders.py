"""Folders to import data from: a typed path checked on submit, bundles found here, whether the computer is online."""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["check_folder", "bundle_folders", "has_route", "MARKER"]

MARKER = "download.json"  # at the root of a bundle (`mirror export`) or of a copy of the download site
PLACES = ("/media", "/mnt", "/run/media", "/Volumes", "~", "~/Downloads", "~/Desktop", "~/Documents")
DEPTH = 3
BUDGET = 1.5  # seconds spent looking, at most


def check_folder(typed: str) -> tuple[str, str]:
    """(a problem in plain words, or "", the folder's path): the path as typed, without surrounding blanks
    (spaces inside it are kept), `~` expanded."""
    text = (typed or "").strip()
    if not text:
        return "Type or paste the bundle's folder first (the folder that holds download.json).", ""
    path = Path(text).expanduser()
    if not path.exists():
        return f"There is no folder {text}: check the path (a USB drive may need to be connected first).", ""
    if not path.is_dir():
        return f"{text} is a file: give the folder that holds it.", ""
    if not (path / MARKER).is_file():
        return (
            f"The folder {text} is not a data bundle (it has no download.json): choose the bundle's own "
            "folder, made by exporting a bundle on a computer with internet access."
        ), ""
    return "", str(path)


def bundle_folders(places: tuple[str, ...] = PLACES, depth: int = DEPTH, budget: float = BUDGET) -> list[str]:
    """Folders holding download.json under the usual places (USB drives, home, downloads), nearest first."""
    deadline, found = time.monotonic() + budget, []
    queue = [(Path(p).expanduser(), 0) for p in places]
    seen: set[Path] = set()
    while queue and time.monotonic() < deadline:
        folder, level = queue.pop(0)
        try:
            real = folder.resolve()
            if real in seen or not folder.is_dir():
                continue
            seen.add(real)
            if (folder / MARKER).is_file():
                found.append(str(folder))
                continue
            if level < depth:
                queue += [
                    (Path(e.path), level + 1)
                    for e in sorted(os.scandir(folder), key=lambda e: e.name)
                    if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")
                ]
        except OSError:
            continue
    return found


def has_route(route_table: Path = Path("/proc/net/route")) -> bool:
    """Whether this computer has a default route (a way to the internet), read from the kernel's routing table: no
    socket is opened, so the check itself never reaches for the network. Where there is no such table (not Linux),
    assume a route and let the download say whether it works."""
    try:
        lines = route_table.read_text().splitlines()[1:]
    except OSError:
        return True
    return any(len(f := line.split()) > 3 and f[1] == "00000000" and int(f[3], 16) & 2 for line in lines)
