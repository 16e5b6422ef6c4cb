# The notifications tests' push endpoint, VAPID keys and subscribed browsers.
from tests.notifications.conftest import endpoint, subscribe, vapid  # noqa: F401
