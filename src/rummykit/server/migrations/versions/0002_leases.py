"""Leases for several server processes on one database: which process owns a table, where
it can be reached, and until when (epoch seconds by the database's clock)."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("owner", sa.String(64), nullable=True))
        b.add_column(sa.Column("owner_url", sa.String(300), nullable=True))
        b.add_column(sa.Column("lease_until", sa.Float(), nullable=True))
        b.create_index("ix_tables_owner", ["owner"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.drop_index("ix_tables_owner")
        b.drop_column("lease_until")
        b.drop_column("owner_url")
        b.drop_column("owner")
