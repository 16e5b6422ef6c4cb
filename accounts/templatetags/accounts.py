from __future__ import annotations

from django import template
from django.contrib.auth.base_user import AbstractBaseUser

from accounts.models import display_name_for

register = template.Library()


@register.filter
def display_name(user: AbstractBaseUser) -> str:
    return display_name_for(user)
