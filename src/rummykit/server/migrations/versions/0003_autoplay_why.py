"""Why a bot plays a human's seat: "away" (the grace period ran out: the player coming back
takes the seat back) or "asked" (the player handed it over), so that a restarted server
tells them apart."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as b:
        b.add_column(sa.Column("autoplay_why", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as b:
        b.drop_column("autoplay_why")
