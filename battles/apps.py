from django.apps import AppConfig


class BattlesConfig(AppConfig):
    """Grid battles: the battle engine on the table core, in a campaign."""

    name = "battles"

    def ready(self) -> None:
        from .integration import register

        # Battles plug into the campaign's timeline and dashboard (campaign.registry).
        register()
        # Turn clocks for players' turns, off by default; the GM sets and pauses them
        # (tables/clocks): a turn that runs out ends.
        from tables.clocks.hooks import ClockHooks, register_clock_hooks
        from westernroses.battle import GM_SEAT as GM

        from .services import battle_clock_manages, battle_clock_skip
        from .table_talk import feed_changed

        register_clock_hooks(
            "battle",
            ClockHooks(
                manages=battle_clock_manages,
                clocked=lambda battle, seat: str(seat) != GM,
                skip_action=battle_clock_skip,
                rules=("skip",),
                # a clock set or paused is no move: the version stays the engine's (its log's
                # numbering), the table feed carries the clock (as a map laid under the grid)
                announce=lambda battle: feed_changed([battle.pk]),
            ),
        )
        # The table's chat: the GMs moderate and read every whisper (tables.chat.rules).
        from .table_talk import register_battle_chat

        register_battle_chat()
