"""Room state files written directly (the format of Sources/LayoutCore/Persistence/StateFile*:
sorted keys, version 3), for rooms on disk of a chosen size without building them through a
client. Stdlib only."""
import json
import random


def layout_document(cells, links_per_cell=2, seed=1):
    """A valid state document: `cells` cells at random positions, and `links_per_cell` links a
    cell (cell i to i+1, i+2, ... around a ring: distinct pairs, no cell linked to itself)."""
    rng = random.Random(seed)
    cell_items = [{"id": i, "pinned": False, "x": round(rng.uniform(-3000, 3000), 3),
                   "y": round(rng.uniform(-3000, 3000), 3)} for i in range(1, cells + 1)]
    link_items = [{"distance": 30, "source": i, "target": (i - 1 + step) % cells + 1}
                  for step in range(1, links_per_cell + 1) for i in range(1, cells + 1)]
    return {"format": "forcelayout-state",
            "layout": {"cells": cell_items, "links": link_items, "nextID": cells + 1, "parameters": {}},
            "reservation": cells + 1, "settled": True, "version": 3}


def write_room(path, cells, links_per_cell=2, seed=1, broken=False):
    """Writes a room's file; `broken`: the last link names a cell that does not exist, which
    only a full read and check finds. Returns its size in bytes."""
    document = layout_document(cells, links_per_cell, seed)
    if broken:
        document["layout"]["links"][-1]["target"] = cells + 10
    data = json.dumps(document, separators=(",", ":"), sort_keys=True).encode()
    path.write_bytes(data)
    return len(data)
