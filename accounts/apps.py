from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # API tokens are answered from the cache; these signals drop an entry on any change.
        from accounts import token_cache

        token_cache.connect()
