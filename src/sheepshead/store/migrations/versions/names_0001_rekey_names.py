"""Display names re-keyed with ICU's UTS #39 data (Unicode 16.0).

The look-alike key was a skeleton built from ``confusable-homoglyphs``' table and kept
default-ignorable code points, so "Robert" + U+1160 had a key of its own and
``hide-name Robert`` missed it. The keys are now ICU's (``sheepshead.names``): this
recomputes every stored name's keys, and hides a name that today's rules refuse or
that now looks like an older one (``store/name_keys.py`` says how).

Revision ID: names_0001
Revises: flags_0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "names_0001"
down_revision: str | None = "flags_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from sheepshead.store.name_keys import rekey_names

    rekey_names(op.get_bind())


def downgrade() -> None:
    # The old keys cannot be had back without the old code: the new ones stay, and so
    # do the names hidden here.
    pass
