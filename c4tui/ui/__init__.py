"""The full-screen Textual front end: screens, widgets and the app."""
