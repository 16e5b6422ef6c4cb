from django.db import migrations


def private_games(apps, schema_editor):
    # A private tournament's games were dealt as public tables: listed to watch and
    # watchable by anyone while the tournament's page refused them. They are private now,
    # watched by whoever may see the tournament (games/tournaments/watching.py).
    Game = apps.get_model("games", "Game")
    Game.objects.filter(tournament_game__tournament__public=False).update(public=False)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_game_form_key"),
        ("tournaments", "0004_due_at"),
    ]

    operations = [
        migrations.RunPython(private_games, migrations.RunPython.noop),
    ]
