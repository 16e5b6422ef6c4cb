"""The score weighs several signals now (issue 49): each pair's kept sums have a new shape,
so the evidence is started again and ``manage.py fairplay_score`` counts every finished
rated game anew (a game counts once: its ScoredGame row goes with the old evidence)."""

from django.db import migrations, models


def start_again(apps, schema_editor):
    Pair = apps.get_model("fairplay", "Pair")
    apps.get_model("fairplay", "PairGame").objects.all().delete()
    apps.get_model("fairplay", "ScoredGame").objects.all().delete()
    Pair.objects.update(
        games=0, logs=[], feeds=0, fits=0, expected=0.0, score=0.0, peak=0.0,
        flagged_after=None, flagged_at=None, evidence={},
    )  # fmt: skip


class Migration(migrations.Migration):
    dependencies = [("fairplay", "0004_permissions_and_whom")]

    operations = [
        migrations.AddField(
            model_name="pair",
            name="signals",
            field=models.JSONField(default=dict, verbose_name="counts of the other signals"),
        ),
        migrations.AddField(
            model_name="pair",
            name="parts",
            field=models.JSONField(default=dict, verbose_name="each signal's part of the score"),
        ),
        migrations.AddField(
            model_name="pair",
            name="cleared_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="cleared at"),
        ),
        migrations.AlterField(
            model_name="staffaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("warn", "warned"),
                    ("void", "voided the pair's rated games"),
                    ("close", "closed the account"),
                    ("dismiss", "dealt with the reports"),
                    ("clear", "cleared the pair"),
                ],
                max_length=8,
                verbose_name="action",
            ),
        ),
        migrations.RunPython(start_again, migrations.RunPython.noop),
    ]
