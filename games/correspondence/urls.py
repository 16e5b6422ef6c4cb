from django.urls import path

from . import views

urlpatterns = [
    path("your-turn/", views.your_turn, name="your_turn"),
    path("your-turn/vacation/", views.vacation, name="vacation"),
]
