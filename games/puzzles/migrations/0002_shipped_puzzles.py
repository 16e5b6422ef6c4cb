"""The puzzles a fresh site ships with (games/puzzles/fixtures/shipped.json, made by
``manage.py make_puzzle_fixture`` from seeded bot games)."""

from django.db import migrations


def load(apps, schema_editor):
    from games.puzzles import shipped

    shipped.load(apps.get_model("puzzles", "Puzzle"))


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]

    operations = [migrations.RunPython(load, migrations.RunPython.noop)]
