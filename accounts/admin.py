from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class WesternRosesUserAdmin(UserAdmin[User]):
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Profile", {"fields": ("display_name",)}))
