"""Let my games become puzzles (games.puzzles): on for accounts made from now on, off for
those made before, who were never asked (their profile rows are added where missing, so
that a profile made later for an old account does not take the new default)."""

from django.conf import settings
from django.db import migrations, models

HELP = (
    "Positions from your finished games may be shown to others as puzzles: only your own "
    "cards at that moment, never your name."
)


def off_for_accounts_made_before(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile.objects.update(puzzles_allowed=False)
    missing = User.objects.filter(profile__isnull=True).values_list("pk", flat=True)
    Profile.objects.bulk_create(
        [Profile(user_id=pk, puzzles_allowed=False) for pk in missing], batch_size=500
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_profile_suggest_throw"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="puzzles_allowed",
            field=models.BooleanField(
                default=True, help_text=HELP, verbose_name="Let my games become puzzles"
            ),
        ),
        migrations.RunPython(off_for_accounts_made_before, migrations.RunPython.noop),
    ]
