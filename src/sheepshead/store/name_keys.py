"""Re-keying the stored display names when the rules of ``sheepshead.names`` change.

A name's two unique keys (``key``, ``look``) are computed by the code of the day: a new
skeleton or a new Unicode version (``names.UNICODE_VERSION``) gives other keys, and a
name stored before may then share its look with another, or be refused by today's rules
("Robert" + U+1160 was accepted once and now shares "Robert"'s skeleton). A migration
calls ``rekey_names`` (``names_0001`` did, for the move to ICU's UTS #39 data).

The rules for what the new keys meet:

- names today's rules accept keep their keys in the order they were chosen; of two
  that now look alike, the older keeps them;
- a name that now looks like one kept, or that today's rules refuse, is hidden (its
  player shows as their label and may choose another name); one that looks like a kept
  name is stored with its keys followed by ``KEY_SEPARATOR`` and the player's id, so
  that the keys stay unique and ``hide_name`` of the kept name still finds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, literal, select, update

from sheepshead import names
from sheepshead.store.identity import KEY_SEPARATOR, DisplayName


@dataclass(frozen=True, slots=True)
class Rekeyed:
    names: int
    #: Names hidden because they now look like an older one.
    look_alikes: int
    #: Names hidden because today's rules refuse them.
    refused: int


def rekey_names(conn: Connection) -> Rekeyed:
    rows = conn.execute(
        select(DisplayName.player_id, DisplayName.text, DisplayName.hidden).order_by(
            DisplayName.created_at, DisplayName.player_id
        )
    ).all()
    # Out of the way first, so that no row's new keys meet another's old ones.
    conn.execute(
        update(DisplayName).values(
            key=literal(KEY_SEPARATOR) + DisplayName.player_id,
            look=literal(KEY_SEPARATOR) + DisplayName.player_id,
        )
    )
    accepted, refused = [], []
    for row in rows:
        try:
            names.check_name(row.text)
        except names.NameRefused:
            refused.append(row)
        else:
            accepted.append(row)
    keys: set[str] = set()
    looks: set[str] = set()
    alikes = 0
    for row in accepted + refused:
        key, look = names.keys(row.text)
        hidden = bool(row.hidden) or row in refused
        if key in keys or look in looks:
            alikes += 1
            hidden = True
            key = key + KEY_SEPARATOR + row.player_id
            look = look + KEY_SEPARATOR + row.player_id
        keys.add(key)
        looks.add(look)
        conn.execute(
            update(DisplayName)
            .where(DisplayName.player_id == row.player_id)
            .values(key=key, look=look, hidden=hidden)
        )
    return Rekeyed(names=len(rows), look_alikes=alikes, refused=len(refused))
