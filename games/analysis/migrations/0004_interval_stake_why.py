from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0003_one_analysis_per_person"),
    ]

    operations = [
        migrations.AddField(
            model_name="moveevaluation",
            name="loss_low",
            field=models.FloatField(default=0.0),
        ),
        migrations.AddField(
            model_name="moveevaluation",
            name="loss_high",
            field=models.FloatField(default=0.0),
        ),
        migrations.AddField(
            model_name="moveevaluation",
            name="stake",
            field=models.FloatField(default=0.0),
        ),
        migrations.AddField(
            model_name="moveevaluation",
            name="why",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
