"""A sweep that runs on its own: a per-user job (systemd timer, LaunchAgent, scheduled task) running `sweep`.

Pure generation of the job's files and commands (`job`, `systemd`, `launchd`, `windows`) and applying such a
plan (`plan`); no Qt. The CLI's `schedule-sweep` chooses the platform and the database.
"""
