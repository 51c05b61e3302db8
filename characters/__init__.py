"""Characters: rule-checked creation, derived sheets, inventory (see westernroses.characters)."""
