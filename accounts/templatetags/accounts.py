from __future__ import annotations

from django import template
from django.contrib.auth.base_user import AbstractBaseUser

from accounts.models import display_name_for
from accounts.models import is_guest as user_is_guest

register = template.Library()


@register.filter
def display_name(user: AbstractBaseUser) -> str:
    return display_name_for(user)


@register.filter
def is_guest(user: AbstractBaseUser) -> bool:
    return user_is_guest(user)
