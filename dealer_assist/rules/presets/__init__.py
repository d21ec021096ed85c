"""House-rules presets shipped with the package (TOML); load them with `HouseRules.preset(name)`."""
