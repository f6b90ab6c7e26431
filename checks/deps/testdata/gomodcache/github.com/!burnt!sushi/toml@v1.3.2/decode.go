package toml
